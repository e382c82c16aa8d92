"""Every refusal the engine and the apps can give: a stable code and its English template.

An error carries a code and parameters (`IllegalAction("box_used", box="chance")`); the
English text is this table's template filled with the parameters, and the apps translate
the same code into the player's language.
"""

from __future__ import annotations

from typing import Any, Mapping

REFUSALS: dict[str, str] = {
    "command_line": "{message}",
    "invalid_record": "not a valid {what}: {detail}",
}


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English text of a refusal."""
    template = REFUSALS.get(code)
    if template is None:  # transitional: raise sites still passing English text as the code
        return code
    return template.format(**params)

"""The `cubilete` command line: one module per command under `commands/`."""

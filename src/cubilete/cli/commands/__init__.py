"""One module per `cubilete` command."""

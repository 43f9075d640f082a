"""A small golden site built and compared byte for byte with its committed expected output."""

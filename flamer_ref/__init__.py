"""flamer_ref: rules reference and adjudication tool for 더 플래머."""

__version__ = "0.1.0"

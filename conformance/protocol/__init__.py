"""The engine protocol: newline-delimited JSON over an engine's stdin/stdout (docs/protocol.md)."""

PROTOCOL_VERSION = "1.0"

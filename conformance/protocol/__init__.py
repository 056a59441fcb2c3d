"""The engine protocol: newline-delimited JSON over an engine's stdin/stdout (docs/protocol.md)."""

PROTOCOL_VERSION = "2.1"  # docs/protocol.md "Changes": the major changes when old engines break

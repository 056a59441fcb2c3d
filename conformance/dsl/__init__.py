"""The scenario language: a Lark grammar (grammar.lark), a typed AST, and the compiler to JSON steps."""

"""DVC stage entry points: one thin module per stage (read params, call the library, write outputs)."""

"""Planning: compose conf/ into params.yaml and the DVC pipelines, with stage deps derived from imports."""

"""The endpoints of /api/v1/, one module per area: thin functions over progress's read models
and writes, whose answers api/schemas.py reads from the objects they return."""

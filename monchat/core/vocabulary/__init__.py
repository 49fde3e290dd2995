"""The vocabularies every layer names, the store included: ``states`` (a memory's states, verdicts, review
actions, kinds, views, the gate's states, the flush's stages, …), each a ``StrEnum``. It imports nothing of
monchat, so naming it runs nothing back up (``tests/test_structure.py``)."""

"""What several test modules share: one copy of each helper, so a fix to one reaches every test that uses it.

A test module imports from here (or from a non-test module next to it), never from another test module;
``tests/test_suite_shape.py`` keeps it so.
"""

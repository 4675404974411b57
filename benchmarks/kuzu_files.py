"""Writing the Kùzu databases of the generated benchmark and test graphs."""

from __future__ import annotations

import os
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def new_database(path: str | os.PathLike[str], ddl: Iterable[str]) -> Iterator[Any]:
    """A new Kùzu database at ``path`` with the tables ``ddl`` creates: yields a connection to
    fill it, and closes the connection and the database after."""
    import kuzu

    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    try:
        for statement in ddl:
            conn.execute(statement)
        yield conn
    finally:
        conn.close()
        db.close()

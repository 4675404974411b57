"""An incremental server-sent-events decoder (the WHATWG ``text/event-stream`` rules).

Lines end with CRLF, LF or CR; ``data:`` lines of one event are joined with newlines; a blank
line ends the event; lines starting with ``:`` are comments; ``event:`` names the event. A line
longer than ``max_line`` bytes is an error rather than a buffer that grows without bound.
"""

from __future__ import annotations


class SSEError(ValueError):
    """The stream broke the format's rules (a line over the limit)."""


class SSEDecoder:
    """Feed bytes as they arrive; get back ``(event, data)`` for each event completed."""

    def __init__(self, *, max_line: int = 4 * 1024 * 1024) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._data: list[str] = []
        self._event = ""

    def feed(self, chunk: bytes) -> list[tuple[str, str]]:
        self._buf += chunk
        out: list[tuple[str, str]] = []
        start = 0
        buf = self._buf
        while True:
            lf, cr = buf.find(b"\n", start), buf.find(b"\r", start)
            ends = [i for i in (lf, cr) if i >= 0]
            if not ends:
                break
            i = min(ends)
            if buf[i] == 0x0D:  # CR: alone, or the first half of CRLF
                if i + 1 == len(buf):
                    break  # wait: the LF may come in the next chunk
                step = 2 if buf[i + 1] == 0x0A else 1
            else:
                step = 1
            self._line(bytes(buf[start:i]).decode("utf-8", "replace"), out)
            start = i + step
        del buf[:start]
        if len(buf) > self.max_line:
            raise SSEError(f"a server-sent-events line is over {self.max_line:,} bytes")
        return out

    def close(self) -> list[tuple[str, str]]:
        """Events left when the stream ends: a last line and an event without its blank line
        are delivered (lenient: some servers end without one)."""
        out: list[tuple[str, str]] = []
        if self._buf:
            self._line(bytes(self._buf).decode("utf-8", "replace"), out)
            self._buf.clear()
        self._line("", out)
        return out

    def _line(self, line: str, out: list[tuple[str, str]]) -> None:
        if not line:
            if self._data:
                out.append((self._event or "message", "\n".join(self._data)))
            self._data, self._event = [], ""
            return
        if line.startswith(":"):
            return
        name, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value

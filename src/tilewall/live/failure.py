"""How a live input fails, in words, for every way of opening one."""


class InputFailed(Exception):
    """The input could not be opened or read; ``str`` is the reason in words (without
    the URL's secrets); ``lasting`` when trying again soon would not help."""

    def __init__(self, reason: str, lasting: bool = False) -> None:
        super().__init__(reason)
        self.lasting = lasting

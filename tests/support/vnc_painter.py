"""A small X program for the VNC tests: a window over the whole screen, cut in four
quarters of solid colour (top-left, top-right, bottom-left, bottom-right). Each line on
stdin, ``r,g,b r,g,b r,g,b r,g,b``, repaints the quarters; after each paint (and the
first) it prints ``drawn <epoch seconds>`` once the X server has it (so a benchmark
times a desktop change from there). Run with ``DISPLAY`` set: ``python vnc_painter.py
W H COLOURS``."""

import sys
import time
import tkinter


def hex_colour(rgb: str) -> str:
    r, g, b = (int(c) for c in rgb.split(","))
    return f"#{r:02x}{g:02x}{b:02x}"


def main() -> None:
    width, height = int(sys.argv[1]), int(sys.argv[2])
    colours = sys.argv[3].split()
    root = tkinter.Tk()
    root.overrideredirect(True)
    root.geometry(f"{width}x{height}+0+0")
    canvas = tkinter.Canvas(root, width=width, height=height, highlightthickness=0, bd=0)
    canvas.pack()
    half_w, half_h = width // 2, height // 2
    boxes = [
        canvas.create_rectangle(x, y, x + half_w, y + half_h, width=0)
        for y in (0, half_h)
        for x in (0, half_w)
    ]

    def paint(quarters: list[str]) -> None:
        for box, colour in zip(boxes, quarters, strict=True):
            canvas.itemconfigure(box, fill=hex_colour(colour))
        root.update()
        # a round trip to the X server: the drawing is in its framebuffer now
        root.winfo_pointerxy()
        print(f"drawn {time.time():.6f}", flush=True)

    def read(_fd: object, _mask: object) -> None:
        line = sys.stdin.readline()
        if not line:
            root.destroy()
            return
        paint(line.split())

    root.update()
    paint(colours)
    root.tk.createfilehandler(sys.stdin, tkinter.READABLE, read)
    root.mainloop()


if __name__ == "__main__":
    main()

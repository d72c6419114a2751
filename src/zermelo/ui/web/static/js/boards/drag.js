// Drag and drop on a board of squares, with pointer events (mouse, pen and touch alike).
//
// A press on a square the board says can start a move, then a movement of a few pixels, lifts its
// piece: a copy follows the pointer and the square under the pointer on release is the drop. A
// press and release without movement is left to the square's click handler, so click-click play
// (and the keyboard's Enter) works as before. The click the browser sends after a drag is eaten.

const THRESHOLD = 5; // pixels the pointer moves before a press becomes a drag

// board: the #board element; selector: the squares' CSS selector; name(element): a square's name;
// canStart(name): whether a drag may start there; start(name): the drag began (highlight targets);
// drop(from, to): the piece was released over square `to` (null: off the board).
export function enableDrag(board, { selector, name, canStart, start, drop }) {
  let press = null;
  let ghost = null;
  let eatClick = false;

  function squareAt(x, y) {
    const element = document.elementFromPoint(x, y);
    const square = element && element.closest(selector);
    return square && board.contains(square) ? square : null;
  }

  function lift(event) {
    // The board may redraw when the drag starts (to show the targets): find the square again, and
    // keep the copy inside the board, where the board's styles draw its piece.
    start(press.from);
    press.element = [...board.querySelectorAll(selector)].find((element) => name(element) === press.from) || press.element;
    const piece = press.element.querySelector("[data-drag]") || press.element;
    const box = piece.getBoundingClientRect();
    ghost = piece.cloneNode(true);
    ghost.removeAttribute("data-drag");
    ghost.classList.add("drag-ghost");
    ghost.dataset.testid = "drag-ghost";
    ghost.style.width = `${box.width}px`;
    ghost.style.height = `${box.height}px`;
    press.size = [box.width, box.height];
    board.append(ghost);
    press.element.classList.add("dragging");
    follow(event);
  }

  function follow(event) {
    const [width, height] = press.size;
    ghost.style.transform = `translate(${event.clientX - width / 2}px, ${event.clientY - height / 2}px)`;
  }

  function end() {
    window.removeEventListener("pointermove", onMove);
    window.removeEventListener("pointerup", onUp);
    window.removeEventListener("pointercancel", onCancel);
    if (ghost) ghost.remove();
    if (press) press.element.classList.remove("dragging");
    ghost = null;
    press = null;
  }

  function onMove(event) {
    if (!press || event.pointerId !== press.id) return;
    if (!ghost) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < THRESHOLD) return;
      lift(event);
    }
    event.preventDefault();
    follow(event);
  }

  function onUp(event) {
    if (!press || event.pointerId !== press.id) return;
    const dragged = Boolean(ghost);
    const from = press.from;
    const target = dragged ? squareAt(event.clientX, event.clientY) : null;
    end();
    if (!dragged) return; // a click: the square's click handler takes it
    eatClick = true;
    setTimeout(() => {
      eatClick = false;
    }, 0);
    drop(from, target ? name(target) : null);
  }

  function onCancel() {
    end();
  }

  board.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || press) return;
    const square = event.target.closest(selector);
    if (!square || !board.contains(square)) return;
    const from = name(square);
    if (!canStart(from)) return;
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, from, element: square };
    window.addEventListener("pointermove", onMove, { passive: false });
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onCancel);
  });
  // The click that follows a drag's release is not a click on a square.
  board.addEventListener(
    "click",
    (event) => {
      if (eatClick) {
        event.stopPropagation();
        event.preventDefault();
        eatClick = false;
      }
    },
    true,
  );
}

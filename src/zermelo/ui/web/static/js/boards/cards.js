// The "cards" board: a card table (poker). The opponent's cards (backs while hidden: the API
// sends "?" for them, never the card), the board's cards, your cards, and the moves as buttons.
// Pot, bets and the betting so far are the board's facts, drawn under every board.

import { t } from "../i18n.js";
import { moveButtons } from "./dice.js";

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };

// One card in the game's notation ("Ks", "J"), or "?" for one face down.
export function cardElement(text) {
  const card = document.createElement("span");
  card.className = "playing-card";
  if (text === "?" || text === "") {
    card.classList.add("back");
    card.setAttribute("aria-label", t("a card face down"));
    card.dataset.card = "?";
    return card;
  }
  const rank = text.slice(0, 1);
  const suit = SUITS[text.slice(1, 2).toLowerCase()] || "";
  card.dataset.card = text;
  if (suit === "♥" || suit === "♦") card.classList.add("red");
  card.setAttribute("aria-label", t("card {card}", { card: text }));
  const face = document.createElement("span");
  face.className = "face";
  face.textContent = `${rank}${suit}`;
  card.append(face);
  return card;
}

function hand(cards, label, testid) {
  const row = document.createElement("div");
  row.className = "hand";
  row.dataset.testid = testid;
  const name = document.createElement("span");
  name.className = "hand-label";
  name.textContent = label;
  row.append(name);
  const cardsBox = document.createElement("span");
  cardsBox.className = "cards";
  for (const card of cards.filter((text) => text !== "")) cardsBox.append(cardElement(card));
  row.append(cardsBox);
  return row;
}

function renderCards(board, view, playable) {
  board.setAttribute("role", "group");
  const [theirs = [], shared = [], mine = []] = view.board.cells;
  board.append(
    hand(theirs, t("The AI"), "their-cards"),
    hand(shared, t("Board"), "board-cards"),
    hand(mine, t("You"), "your-cards"),
    moveButtons(view, playable),
  );
}

export const cardsBoard = { draw: renderCards };

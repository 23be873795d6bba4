// The control panel's screen-share rows: "Share my screen" here (the /share/ page with the
// target chosen), and for a display the code a guest shares to it with: shown on demand,
// or always in presentation mode (docs/share.md).

import { get, put, del, seg } from "../api.js";
import { h, act } from "../ui.js";

/** @param {{code: string | null, until: string | null, presentation: boolean} | null} c */
function describeCode(c) {
  if (!c || !c.code) return c && c.presentation ? "Presentation: a code shows while no share plays." : "No share code is shown.";
  const spaced = `${c.code.slice(0, 3)} ${c.code.slice(3)}`;
  if (!c.until) return `Code ${spaced}, shown while in presentation mode.`;
  return `Code ${spaced}, shown until ${new Date(c.until).toLocaleTimeString()}.`;
}

/**
 * The rows and their painter.
 * @param {() => any} targetNow the panel's target now (null once it is gone)
 * @param {HTMLElement} error where a refusal is shown
 */
export function shareControls(targetNow, error) {
  const link = h("a", { class: "button", target: "_blank", rel: "noopener" }, "Share my screen here");
  const code = h("p", { class: "muted", role: "status" });
  const showBtn = h("button", { type: "button", dataset: { needs: "operate" } }, "Show a share code");
  const hideBtn = h("button", { type: "button", dataset: { needs: "operate" } }, "Hide it");
  const presentation = h("input", { type: "checkbox", name: "presentation" });
  const guests = h(
    "div",
    { class: "row wrap", role: "group", "aria-label": "Guest share code" },
    showBtn,
    hideBtn,
    h("label", {}, presentation, " Presentation (always show a code)"),
  );
  let shown = null;

  async function read(t) {
    const body = await get("/shares/codes");
    shown = (body.codes || []).find((c) => String(c.displayId) === t.id) || null;
    code.textContent = describeCode(shown);
    presentation.checked = !!(shown && shown.presentation);
    hideBtn.disabled = !(shown && shown.code);
  }
  const run = (button, fn) =>
    button.addEventListener("click", () => {
      const t = targetNow();
      if (t) act(button, async () => read(t).then(() => fn(t)).then(() => read(t)), { errorBox: error });
    });
  run(showBtn, (t) => put(`/shares/codes/${seg(t.id)}`, { minutes: 10 }));
  run(hideBtn, (t) => del(`/shares/codes/${seg(t.id)}`));
  presentation.addEventListener("change", () => {
    const t = targetNow();
    if (t) act(presentation, async () => put(`/shares/presentation/${seg(t.id)}`, { presentation: presentation.checked }).then(() => read(t)), { errorBox: error });
  });

  let readFor = "";
  function paint(target) {
    link.setAttribute("href", `/share/?target=${seg(target.kind)}&id=${seg(target.id)}`);
    const display = target.kind === "display";
    guests.hidden = !display;
    code.hidden = !display;
    if (display && readFor !== target.key) {
      readFor = target.key;
      read(target).catch(() => {});
    }
  }

  const rows = [h("div", { class: "row wrap" }, link), code, guests];
  return { rows, paint };
}

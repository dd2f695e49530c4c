/**
 * A layout probe evaluated in a page Chromium has laid out: every visible text's rendered font size (its CSS size
 * times the SVG scale it is drawn at) and box, the page's overflow, the report's block order and widths, and the
 * heat map's cell labels with their published rings. Only the test runs it: the report itself has no script.
 */

/** A visible run of text: rendered size in CSS pixels, its box in page coordinates. */
export interface ProbedText {
  text: string;
  size: number;
  inSvg: boolean;
  /** Past the edge of the SVG it is drawn in. */
  cut: boolean;
  /** Inside a horizontally scrollable box (a wide table): reachable by scrolling, not cut off. */
  inScroll: boolean;
  className: string;
  box: Box;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A heat-map cell label: its box, its colour and the colour of the cell behind it. */
export interface ProbedLabel {
  text: string;
  box: Box;
  ink: string;
  fill: string;
  /** For the published cell: its ring's centre and inner radius, on screen. */
  ring?: { cx: number; cy: number; inner: number };
}

export interface Probe {
  viewport: number;
  scrollWidth: number;
  texts: ProbedText[];
  /** Top-level blocks after the heading, in order: the id or class of each. */
  blocks: string[];
  claimTop: number | null;
  /** Per figure-and-table pair, and the claim, the span its children cover. */
  spans: { name: string; left: number; right: number }[];
  labels: ProbedLabel[];
  /** Elements that hide overflowing text (overflow hidden or clip and content wider than the box). */
  clipped: string[];
  /** Boxes wider than their container: past its content edge, or scrolling sideways (tag.class#text). */
  wide: string[];
}

/** The probe, as an expression for Runtime.evaluate. */
export const PROBE = `(() => {
  const page = (rect) => ({ left: rect.left + scrollX, top: rect.top + scrollY, right: rect.right + scrollX,
    bottom: rect.bottom + scrollY });
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const element = node.parentElement;
    if (node.textContent.trim() === "" || element.closest("title, style, script") !== null) continue;
    if (!element.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rect = range.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    const inSvg = element instanceof SVGElement;
    let size = parseFloat(getComputedStyle(element).fontSize);
    if (inSvg) {
      const m = element.getScreenCTM();
      size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    let inScroll = false;
    for (let up = element; up !== null && !inScroll; up = up.parentElement) {
      inScroll = /auto|scroll/.test(getComputedStyle(up).overflowX) && up.scrollWidth > up.clientWidth;
    }
    // An SVG draws nothing outside its box: text past it is cut off.
    const owner = inSvg ? element.ownerSVGElement?.getBoundingClientRect() : undefined;
    const cut = owner !== undefined && (rect.left < owner.left - 0.5 || rect.right > owner.right + 0.5 ||
      rect.top < owner.top - 0.5 || rect.bottom > owner.bottom + 0.5);
    texts.push({ text: node.textContent.trim().slice(0, 60), size, inSvg, inScroll, cut,
      className: element.getAttribute("class") ?? "", box: page(rect) });
  }
  const heading = document.querySelector("h1");
  const blocks = [];
  for (let el = heading.nextElementSibling; el !== null; el = el.nextElementSibling) {
    blocks.push(el.id || el.className || el.tagName.toLowerCase());
  }
  const claim = document.getElementById("claim");
  const spans = [...document.querySelectorAll(".pair, #claim .suites")].map((el) => {
    const boxes = [...el.children].map((child) => {
      const inner = child.querySelector(":scope > table") ?? child;
      return inner.getBoundingClientRect();
    });
    return { name: el.closest("section")?.id ?? el.id ?? "pair",
      left: Math.min(...boxes.map((b) => b.left)), right: Math.max(...boxes.map((b) => b.right)) };
  });
  const labels = [...document.querySelectorAll(".cell-label")]
    .filter((label) => label.checkVisibility({ visibilityProperty: true }))
    .map((label) => {
      const cell = label.closest(".cell");
      const dot = cell.querySelector("circle.dot");
      const ringElement = cell.querySelector("circle.ring");
      let ring;
      if (ringElement !== null) {
        const r = ringElement.getBoundingClientRect();
        const m = ringElement.getScreenCTM();
        const stroke = parseFloat(getComputedStyle(ringElement).strokeWidth) * m.a;
        ring = { cx: (r.left + r.right) / 2 + scrollX, cy: (r.top + r.bottom) / 2 + scrollY,
          inner: (r.right - r.left) / 2 - stroke / 2 };
      }
      return { text: label.textContent, box: page(label.getBoundingClientRect()),
        ink: getComputedStyle(label).fill, fill: getComputedStyle(dot).fill, ring };
    });
  const clipped = [...document.querySelectorAll("body *")].filter((el) => {
    const style = getComputedStyle(el);
    return /hidden|clip/.test(style.overflowX + style.overflowY) && el.scrollWidth > el.clientWidth + 1;
  }).map((el) => el.tagName.toLowerCase() + "." + el.className);
  // A box wider than its container: past the container's inner edges, or a box that scrolls sideways.
  const wide = [...document.querySelectorAll("body *")].filter((el) => {
    if (el instanceof SVGElement && el.tagName !== "svg") return false;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.position === "absolute" || style.position === "fixed") return false;
    if (/auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1) return true;
    const parent = el.parentElement;
    const box = el.getBoundingClientRect();
    if (parent === null || box.width === 0) return false;
    const outer = parent.getBoundingClientRect();
    const around = getComputedStyle(parent);
    const left = outer.left + parseFloat(around.borderLeftWidth);
    const right = outer.right - parseFloat(around.borderRightWidth);
    return box.right > right + 1 || box.left < left - 1;
  }).map((el) => el.tagName.toLowerCase() + "." + el.className + "#" + (el.textContent ?? "").trim().slice(0, 30));
  return { viewport: innerWidth, scrollWidth: document.documentElement.scrollWidth, texts, blocks,
    claimTop: claim === null ? null : claim.getBoundingClientRect().top + scrollY, spans, labels, clipped,
    wide };
})()`;

/** Whether two boxes overlap by more than half a pixel each way. */
export function intersects(a: Box, b: Box): boolean {
  return Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
}

/** WCAG contrast ratio of two CSS `rgb(…)` colours. */
export function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = css.match(/[\d.]+/g)!.slice(0, 3).map((value) => {
      const channel = Number(value) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

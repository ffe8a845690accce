// Tiny element builders: every text goes in as a text node, never as markup, so API strings
// cannot inject anything.
type Child = Node | string | number | null | undefined | false;
type Attrs = Readonly<Record<string, string | number | boolean | null | undefined>>;

const SVG_NS = 'http://www.w3.org/2000/svg';

const apply = (el: Element, attrs: Attrs, children: readonly Child[]): void => {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
};

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
};

export const s = (tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement => {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs, children);
  return el;
};

let ids = 0;
/** A unique id for aria-labelledby and friends. */
export const uid = (prefix: string): string => `${prefix}-${String((ids += 1))}`;

// The frame every mail shares: the page's title, the body, a link to the page, and the footer
// with the manage and unsubscribe links. Text and HTML are built from the same parts, so the two
// alternatives say the same thing; everything that came from outside is escaped in the HTML.
import { escapeHtml } from '../../shared/escapeHtml.ts';
import type { MailTexts } from './texts.ts';

/** A paragraph, or a link shown with its label. */
export type Block = Readonly<{ text: string }> | Readonly<{ link: string; label: string }>;

export type Frame = Readonly<{
  /** The words of the mail's locale (the page's). */
  texts: MailTexts;
  pageTitle: string;
  pageUrl: string;
  heading: string;
  blocks: readonly Block[];
  /** Absent in the confirmation mail: there is nothing to manage yet. */
  footer?: Readonly<{ manageUrl: string; unsubscribeUrl: string }>;
}>;

const textOf = (block: Block): string => ('text' in block ? block.text : `${block.label}: ${block.link}`);

const htmlOf = (block: Block): string =>
  'text' in block
    ? `<p>${escapeHtml(block.text).replace(/\n/g, '<br>')}</p>`
    : `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.label)}</a></p>`;

const footerBlocks = (frame: Frame): Block[] =>
  frame.footer
    ? [
        { text: frame.texts.footerReason(frame.pageTitle) },
        { link: frame.footer.manageUrl, label: frame.texts.manage },
        { link: frame.footer.unsubscribeUrl, label: frame.texts.unsubscribe },
      ]
    : [];

export const renderText = (frame: Frame): string =>
  [
    frame.pageTitle,
    '',
    frame.heading,
    '',
    ...frame.blocks.flatMap((block) => [textOf(block), '']),
    textOf({ link: frame.pageUrl, label: frame.texts.viewPage }),
    ...(frame.footer ? ['', '--', ...footerBlocks(frame).map(textOf)] : []),
    '',
  ].join('\n');

export const renderHtml = (frame: Frame): string =>
  [
    '<!doctype html>',
    `<html lang="${frame.texts.locale}"><head><meta charset="utf-8"><title>${escapeHtml(frame.heading)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; color: #1a1a1a">',
    `<p style="color: #555">${escapeHtml(frame.pageTitle)}</p>`,
    `<h1 style="font-size: 1.3em">${escapeHtml(frame.heading)}</h1>`,
    ...frame.blocks.map(htmlOf),
    htmlOf({ link: frame.pageUrl, label: frame.texts.viewPage }),
    ...(frame.footer
      ? [
          '<hr>',
          `<div style="font-size: 0.9em; color: #555">${footerBlocks(frame).map(htmlOf).join('')}</div>`,
        ]
      : []),
    '</body></html>',
    '',
  ].join('\n');

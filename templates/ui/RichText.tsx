import { Fragment, type ReactNode } from 'react';

/**
 * Renders a translated string that wraps words in named tags, replacing each tag with a
 * component, so translators can move the link inside the sentence.
 *
 * @example <RichText text="Read the <privacy>policy</privacy>." tags={{ privacy: (c) => <a href="/privacy">{c}</a> }} />
 */
export function RichText({ text, tags }: { text: string; tags: Record<string, (children: string) => ReactNode> }) {
  const parts: ReactNode[] = [];
  const pattern = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const [whole, name = '', inner = ''] = match;
    parts.push(text.slice(last, match.index));
    const render = tags[name];
    parts.push(<Fragment key={match.index}>{render ? render(inner) : inner}</Fragment>);
    last = match.index + whole.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/** The characters HTML content and quoted attribute values need escaped, and their entities. */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const ANY = /[&<>"']/;
const EVERY = /[&<>"']/g;

/**
 * Escapes text for HTML content and quoted attribute values alike. One pass,
 * and none for text with nothing to escape: report.html escapes every
 * exchange of a run, and five passes made most of its writing's memory.
 */
export function escapeHtml(text: string): string {
  return ANY.test(text) ? text.replace(EVERY, (char) => ENTITIES[char] ?? char) : text;
}

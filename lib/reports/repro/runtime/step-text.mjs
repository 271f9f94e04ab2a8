// A step as people read it in a reproduction's messages: `#12 POST /api/…/oauth/token (key 1)`,
// values learned at replay time shown as `…`, the key by its label.

export function describeStep(step) {
  const url = step.url.replace(/\{\{(v\d+|!)\}\}/g, (_, name) => (name === '!' ? '{{' : '…'));
  return `#${step.id} ${step.method} ${url}${step.key ? ` (${step.key})` : ''}`;
}

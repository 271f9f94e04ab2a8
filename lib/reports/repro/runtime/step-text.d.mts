// Types of step-text.mjs.
export function describeStep(step: {
  id: number;
  method: string;
  url: string;
  key?: string;
}): string;

import { shellWord } from '../shell-quote.js';
import { captures, curlArgs, literal, picks } from './curl-step.js';
import type { ReplayPlan } from './plan-types.js';

/** Removes what the replay made, each with the credential that made it; then the temporary folder. */
export function curlCleanup(plan: ReplayPlan): string[] {
  const { orders, webhooks } = plan.paths;
  const at = (path: string) => {
    const [before, after] = path.split('{id}');
    return `"$TARGET"${literal(before ?? '')}"$_id"${after ? literal(after) : ''}`;
  };
  const tokenSteps = [
    ...new Set(
      plan.steps.flatMap((s) =>
        (s.makes === 'order' || s.makes === 'webhook') && s.tokenFrom !== undefined
          ? [s.tokenFrom]
          : [],
      ),
    ),
  ];
  const again = tokenSteps.flatMap((id) => {
    const step = plan.steps.find((s) => s.id === id);
    if (!step) return [];
    return [
      `again_${id}() { fire ${id}t ${curlArgs(plan, step)}; PICK=${shellWord(picks(plan, step))} LC_ALL=C awk -f "$T/values.awk" "$T/${id}t.h" "$T/${id}t.b" > "$T/p" 2>/dev/null; ${captures(plan, step)[0] ?? ':'}; }`,
    ];
  });
  return [
    ...again,
    '# unmake TOKEN-VARIABLE TOKEN-STEP CURL-ARGS: with the token that made it; a new one if that expired',
    'unmake() {',
    '  _tv=$1; _from=$2; shift 2',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    '  case $_tv in v[0-9]*) eval "_tk=\\${$_tv:-}" ;; *) return 0 ;; esac',
    `  _c=$(curl -sS --max-time 30 --proto =http,https -o /dev/null -w '%{http_code}' -H "authorization: Bearer $_tk" "$@" 2>/dev/null)`,
    '  if [ "$_c" = 401 ] && [ "$_from" != - ] && command -v "again_$_from" >/dev/null 2>&1; then',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    '    "again_$_from"; eval "_tk=\\${$_tv:-}"',
    '    curl -sS --max-time 30 --proto =http,https -o /dev/null -H "authorization: Bearer $_tk" "$@" 2>/dev/null',
    '  fi',
    '  return 0',
    '}',
    'cleanup() {',
    "  trap '' INT TERM",
    '  if [ -s "$T/made" ]; then',
    ...(plan.control
      ? [
          '    # Service states first: a read-only account refuses the cancels.',
          '    while read -r _k _id _tv _from; do',
          '      case $_k in',
          `        service) curl -sS --max-time 30 --proto =http,https -o /dev/null -X PATCH -H "x-control-token: $CONTROL_TOKEN" -H 'content-type: application/json' --data-raw '{"service":"normal","suspended":false,"incomplete":false}' "$CONTROL_URL$_id" 2>/dev/null ;;`,
          '      esac',
          '    done < "$T/made"',
        ]
      : []),
    '    while read -r _k _id _tv _from; do',
    '      case $_k in',
    `        order) unmake "$_tv" "$_from" -X POST ${at(orders.cancel)} ;;`,
    `        webhook) unmake "$_tv" "$_from" -X ${shellWord(webhooks.remove)} ${at(webhooks.item)} ;;`,
    '      esac',
    '    done < "$T/made"',
    ...(plan.control
      ? [
          '    while read -r _k _id _tv _from; do',
          '      case $_k in',
          '        key) curl -sS --max-time 30 --proto =http,https -o /dev/null -X POST -H "x-control-token: $CONTROL_TOKEN" "$CONTROL_URL/keys/$_id/revoke" 2>/dev/null ;;',
          '      esac',
          '    done < "$T/made"',
        ]
      : []),
    '  fi',
    '  rm -rf "$T"',
    '}',
  ];
}

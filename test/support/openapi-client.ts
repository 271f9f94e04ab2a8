import { execFile } from 'node:child_process';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { orderBodyOf } from '../../lib/check/order-body.js';
import { type Dialect, pathTemplate } from '../../lib/target/dialect.js';
import { ROOT } from '../matrices/area-checks.js';
import { emptyDir } from './temp-dir.js';

const run = promisify(execFile);

/**
 * A partner's typed client for a dialect, made the way a partner makes one:
 * openapi-typescript turns the served OpenAPI document into types, a script
 * uses openapi-fetch with them to get a token, read the account, place an
 * order, read it and cancel it, `tsc --strict` type-checks the script
 * against the generated types, and Node runs it against the sandbox. The
 * script is written for the dialect (its paths, its body), as a partner
 * writes theirs for their vendor's: the type check is what proves the
 * document describes that body and those answers.
 */
export interface ClientRun {
  /** Output of openapi-typescript, then of tsc (empty when both passed). */
  typecheck: { code: number; output: string };
  /** The script's own report: each step's status, or why it stopped. */
  run: { code: number; output: string };
}

export async function generatedClientRun(input: {
  document: object;
  dialect: Dialect;
  origin: string;
  key: { accessKeyId: string; secretKey: string };
  sku: string;
  quantity: number;
}): Promise<ClientRun> {
  const dir = emptyDir('openapi-client-');
  try {
    return await clientIn(dir, input);
  } finally {
    // The link to node_modules goes, not what it links to.
    rmSync(dir, { recursive: true, force: true });
  }
}

async function clientIn(
  dir: string,
  input: Parameters<typeof generatedClientRun>[0],
): Promise<ClientRun> {
  // The project's packages (openapi-fetch, typescript), as a partner's own node_modules.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(input.document));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['client.ts'],
    }),
  );
  writeFileSync(join(dir, 'client.ts'), clientScript(input));
  const typecheck = await step(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
      'openapi.json',
      '-o',
      'schema.d.ts',
    ],
    dir,
  );
  if (typecheck.code === 0) {
    const tsc = await step(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      dir,
    );
    typecheck.code = tsc.code;
    typecheck.output = tsc.code === 0 ? '' : tsc.output;
  }
  const ran =
    typecheck.code === 0
      ? await step(process.execPath, ['client.ts'], dir, {
          ORIGIN: input.origin,
          ACCESS_KEY_ID: input.key.accessKeyId,
          SECRET_KEY: input.key.secretKey,
        })
      : { code: -1, output: 'not run: the type check failed' };
  return { typecheck, run: ran };
}

async function step(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd,
      // The credentials reach the script through its environment, never its command line.
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === 'number' ? e.code : 1,
      output: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    };
  }
}

/** `answer["a"]["b"]` for the JSON pointer `/a/b`: a member the generated types must have. */
function member(variable: string, pointer: string): string {
  return (
    variable +
    pointer
      .split('/')
      .slice(1)
      .map((t) => `[${JSON.stringify(t.replaceAll('~1', '/').replaceAll('~0', '~'))}]`)
      .join('')
  );
}

/** A path template as openapi-fetch takes it: the path, with its query placeholders as parameters. */
function call(template: string, values: Record<string, string>): { path: string; params: string } {
  const [path = '', query = ''] = template.split('?', 2);
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map(
    (m) => `${JSON.stringify(m[1])}: ${values[m[1] ?? ''] ?? '""'}`,
  );
  const queryParams = (query === '' ? [] : query.split('&')).map((pair) => {
    const [name = '', value = ''] = pair.split('=', 2);
    const placeholder = /^\{(\w+)\}$/.exec(value)?.[1];
    return `${JSON.stringify(decodeURIComponent(name))}: ${placeholder ? values[placeholder] : JSON.stringify(decodeURIComponent(value))}`;
  });
  const params = [
    pathParams.length ? `path: { ${pathParams.join(', ')} }` : '',
    queryParams.length ? `query: { ${queryParams.join(', ')} }` : '',
  ].filter(Boolean);
  return { path, params: params.join(', ') };
}

function clientScript(input: { dialect: Dialect; sku: string; quantity: number }): string {
  const d = input.dialect;
  const token = call(pathTemplate(d, 'token'), {});
  const account = call(pathTemplate(d, 'account'), {});
  const orders = call(pathTemplate(d, 'orders'), {});
  const read = call(pathTemplate(d, 'order'), { id: 'id' });
  const cancel = call(pathTemplate(d, 'orderCancel'), { id: 'id' });
  const method = (op: keyof Dialect['operations']) => d.operations[op].method;
  const body = orderBodyOf(d.orderBody, {
    externalId: 'EXTERNAL_ID',
    items: [{ sku: input.sku, quantity: input.quantity }],
    address: {
      name: 'Ada Lovelace',
      line1: '1 Main Street',
      city: 'Springfield',
      state: 'IL',
      postal_code: '62701',
      country: 'US',
    },
  });
  const bodyLiteral = JSON.stringify(body, null, 2).replace('"EXTERNAL_ID"', 'externalId');
  return `// Written by the test for this dialect, as a partner writes theirs: typed by openapi-typescript's schema.d.ts.
import createClient from 'openapi-fetch';
import type { paths } from './schema.d.ts';

const origin = process.env.ORIGIN ?? '';
const client = createClient<paths>({ baseUrl: \`\${origin}/api/on-demand/v1\` });
const steps: Record<string, number> = {};
function expect(step: string, status: number, wanted: number): void {
  steps[step] = status;
  if (status !== wanted) {
    console.log(JSON.stringify({ steps, failed: step, wanted }));
    process.exit(1);
  }
}

const basic = Buffer.from(\`\${process.env.ACCESS_KEY_ID}:\${process.env.SECRET_KEY}\`).toString('base64');
const granted = await client.${method('token')}(${JSON.stringify(token.path)}, {
  headers: { Authorization: \`Basic \${basic}\`, 'Content-Type': 'application/x-www-form-urlencoded' },
  body: { grant_type: 'client_credentials' },
  bodySerializer: (form) => new URLSearchParams(form as Record<string, string>).toString(),
});
expect('token', granted.response.status, ${d.operations.token.status});
const accessToken: string = granted.data?.access_token ?? '';
const auth = { Authorization: \`Bearer \${accessToken}\` };

const account = await client.${method('account')}(${JSON.stringify(account.path)}, { headers: auth${account.params ? `, params: { ${account.params} }` : ''} });
expect('account', account.response.status, ${d.operations.account.status});

const externalId = \`client-\${Date.now()}\`;
const placed = await client.${method('orderCreate')}(${JSON.stringify(orders.path)}, {
  headers: auth,
  params: { header: { 'Idempotency-Key': \`key-\${externalId}\` }${orders.params ? `, ${orders.params}` : ''} },
  body: ${bodyLiteral.replaceAll('\n', '\n  ')},
});
expect('place', placed.response.status, ${d.operations.orderCreate.status});
if (!placed.data) throw new Error('no order in the answer');
const id: string = ${member('placed.data', d.answers.order.id)};

const read = await client.${method('orderRead')}(${JSON.stringify(read.path)}, { headers: auth, params: { ${read.params} } });
expect('read', read.response.status, ${d.operations.orderRead.status});
if (!read.data) throw new Error('no order in the answer');
const readId: string = ${member('read.data', d.answers.order.id)};
if (readId !== id) throw new Error(\`read \${readId}, placed \${id}\`);

const cancelled = await client.${method('orderCancel')}(${JSON.stringify(cancel.path)}, { headers: auth, params: { ${cancel.params} } });
expect('cancel', cancelled.response.status, ${d.operations.orderCancel.status});
console.log(JSON.stringify({ steps, order: id }));
`;
}

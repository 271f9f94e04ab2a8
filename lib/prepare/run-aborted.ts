/**
 * The run cannot be carried out (target unreachable, control API refusing,
 * the bundled reference not starting): one line for the user, exit 2. Like
 * ConfigError, its message never holds a secret.
 */
export class RunAborted extends Error {
  override name = 'RunAborted';
}

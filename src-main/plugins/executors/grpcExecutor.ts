import { readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { grpcExecutorSchema } from '../../../src-shared/plugins/pluginExecutor.js';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import { checkRequestFields, type DescriptorProtoLike } from './grpcFields.js';
import { allowedSet, checkDestination, EgressFailed, EgressRefused, originOf, type EgressOptions } from '../../net/ssrfGuard.js';

/**
 * The `grpc` executor of a plugin (issue #12): one unary call of a method described by a
 * `.proto` inside the plugin folder, the request message being the call's arguments (already
 * checked against the tool's JSON Schema; fields the message does not have are refused here).
 * The address passes the same SSRF rule as the `http` executor (ssrfGuard.checkDestination):
 * the name is resolved once, every address checked, and the channel connects to the checked
 * IP, never to the name again (no DNS rebinding), with the name kept for TLS and `:authority`.
 * Plaintext only for an origin the person allowed as `http://host:port` (a local server);
 * every other server is reached over TLS and must be public (or allowed as `https://host:port`).
 */

/** What a plugin declares for one `grpc` tool (the manifest's executor, `type` aside). */
export interface GrpcSpec {
  /** A `.proto` file inside the plugin folder, relative to it. */
  proto: string;
  /** The service with its package, e.g. `terrain.v1.Slope`. */
  service: string;
  /** A unary method of the service. */
  method: string;
  /** `host:port` of the server (`[v6]:port` for an IPv6 literal). */
  address: string;
}

/** How one call runs. */
export interface GrpcContext {
  /** The plugin's folder: the `.proto` and everything it imports must be inside it. */
  pluginDir: string;
  signal: AbortSignal;
  /** The call's deadline. */
  timeoutMs: number;
  /** Largest response message accepted, in bytes (`grpc.max_receive_message_length`). */
  maxBytes: number;
  /** The app's guard options (`allowedOrigins`: origins that may be non-public; `lookup` for tests). */
  egress?: EgressOptions;
}

export interface GrpcResult {
  /** The response message as a plain object (longs, enums and bytes as strings; defaults filled). */
  response: object;
}

/** How messages become objects: the same options the request and the response use. */
export const GRPC_LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  oneofs: true,
};

/** A method ready to call: its definition and the message types it needs for the field check. */
export interface LoadedMethod {
  definition: protoLoader.MethodDefinition<object, object>;
  packageDefinition: protoLoader.PackageDefinition;
  /** The proto file, resolved (through symlinks) inside the plugin folder. */
  protoPath: string;
}

/**
 * Loads the method from the plugin's `.proto`. Throws ToolFailure: `not_allowed` when the
 * file resolves outside the plugin folder, `handler_error` for a missing or broken file, an
 * unknown service or method, or a streaming method (only unary calls are supported).
 */
export function loadGrpcMethod(spec: GrpcSpec, pluginDir: string): LoadedMethod {
  const checked = grpcExecutorSchema.safeParse({ type: 'grpc', ...spec });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ToolFailure(
      issue?.path[0] === 'proto' ? 'not_allowed' : 'handler_error',
      `The plugin's grpc declaration is invalid${issue?.path.length ? ` (${issue.path.join('.')})` : ''}: ${issue?.message ?? 'unknown problem'}.`,
    );
  }
  let root: string;
  try {
    root = realpathSync(pluginDir);
  } catch (err) {
    throw new ToolFailure('handler_error', `The plugin folder cannot be read: ${(err as Error).message}`);
  }
  let protoPath: string;
  try {
    protoPath = realpathSync(join(root, spec.proto));
  } catch {
    throw new ToolFailure('handler_error', `The plugin's proto file '${spec.proto}' does not exist.`);
  }
  if (!inside(root, protoPath)) {
    throw new ToolFailure('not_allowed', `The plugin's proto file '${spec.proto}' leads outside the plugin folder; refused.`);
  }
  checkImports(root, protoPath, spec.proto, new Set());
  let packageDefinition: protoLoader.PackageDefinition;
  try {
    packageDefinition = protoLoader.loadSync(protoPath, { ...GRPC_LOADER_OPTIONS, includeDirs: [root] });
  } catch (err) {
    throw new ToolFailure('handler_error', `The plugin's proto file '${spec.proto}' cannot be loaded: ${(err as Error).message}`);
  }
  const service = packageDefinition[spec.service];
  if (!service || isTypeDefinition(service)) {
    throw new ToolFailure('handler_error', `The plugin's proto file '${spec.proto}' has no service ${spec.service}.`);
  }
  const definition = (service as protoLoader.ServiceDefinition)[spec.method] as protoLoader.MethodDefinition<object, object> | undefined;
  if (!definition) throw new ToolFailure('handler_error', `The service ${spec.service} has no method ${spec.method}.`);
  if (definition.requestStream || definition.responseStream) {
    const kind =
      definition.requestStream && definition.responseStream
        ? 'bidirectional streaming'
        : definition.requestStream
          ? 'client streaming'
          : 'server streaming';
    throw new ToolFailure(
      'handler_error',
      `${spec.service}.${spec.method} is a ${kind} method; plugin gRPC tools call unary methods only (one request, one response).`,
    );
  }
  return { definition, packageDefinition, protoPath };
}

/** The request as the wire bytes, after refusing fields the message does not have. Throws ToolFailure('invalid_params'). */
export function encodeGrpcRequest(loaded: LoadedMethod, args: Readonly<Record<string, unknown>>): Buffer {
  const type = loaded.definition.requestType.type as DescriptorProtoLike;
  const service = loaded.definition.path.replace(/^\/|\/[^/]*$/g, '');
  checkRequestFields(args, type, service, loaded.packageDefinition);
  try {
    return loaded.definition.requestSerialize(args as object);
  } catch (err) {
    throw new ToolFailure('invalid_params', `The arguments do not make a ${type.name ?? 'request'} message: ${(err as Error).message}`);
  }
}

/** Where to connect: the checked address and how. */
export interface GrpcDestination {
  host: string;
  port: number;
  origin: string;
  /** grpc-js target naming the checked IP, e.g. `ipv4:127.0.0.1:50051`. */
  target: string;
  tls: boolean;
}

/**
 * Checks `host:port` with the SSRF guard. An origin the person allowed as `http://host:port`
 * is reached in plaintext and may be non-public; anything else over TLS, as
 * `https://host:port`, public unless allowed. Throws ToolFailure: `not_allowed` for the
 * guard's refusals, `handler_error` when the name does not resolve.
 */
export async function checkGrpcAddress(address: string, egress: EgressOptions | undefined): Promise<GrpcDestination> {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(address);
  const port = Number(m?.[2]);
  if (!m || !(port > 0 && port <= 65535))
    throw new ToolFailure('handler_error', `The plugin's gRPC address '${address}' is not host:port.`);
  const hostPart = m[1] ?? '';
  const host = hostPart.replace(/^\[|\]$/g, '');
  let plainOrigin: string;
  try {
    plainOrigin = originOf(`http://${hostPart}:${port}`);
  } catch {
    throw new ToolFailure('handler_error', `The plugin's gRPC address '${address}' is not host:port.`);
  }
  const tls = !allowedSet(egress?.allowedOrigins).has(plainOrigin);
  const url = `${tls ? 'https' : 'http'}://${hostPart}:${port}/`;
  try {
    const checked = await checkDestination(url, egress ?? {});
    const target = checked.family === 6 ? `ipv6:[${checked.address}]:${port}` : `ipv4:${checked.address}:${port}`;
    return { host, port, origin: checked.origin, target, tls };
  } catch (err) {
    if (err instanceof EgressRefused) throw new ToolFailure('not_allowed', err.message);
    if (err instanceof EgressFailed) throw new ToolFailure('handler_error', err.message, true);
    throw err;
  }
}

/**
 * Runs one call. Throws ToolFailure: see loadGrpcMethod, encodeGrpcRequest and
 * checkGrpcAddress for refusals before anything is sent; then the deadline is `timeout`
 * (retryable), the signal `cancelled`, INVALID_ARGUMENT `invalid_params`, UNAVAILABLE a
 * retryable `handler_error`, a response over `maxBytes` and every other status
 * `handler_error` with the status and its details.
 */
export async function runGrpc(spec: GrpcSpec, args: Readonly<Record<string, unknown>>, ctx: GrpcContext): Promise<GrpcResult> {
  const loaded = loadGrpcMethod(spec, ctx.pluginDir);
  const request = encodeGrpcRequest(loaded, args);
  if (ctx.signal.aborted) throw new ToolFailure('cancelled', 'The gRPC call was stopped before it was sent.');
  const dest = await checkGrpcAddress(spec.address, ctx.egress);
  if (ctx.signal.aborted) throw new ToolFailure('cancelled', 'The gRPC call was stopped before it was sent.');

  const authority = dest.host.includes(':') ? `[${dest.host}]:${dest.port}` : `${dest.host}:${dest.port}`;
  const options: grpc.ChannelOptions = {
    'grpc.max_receive_message_length': Math.max(0, Math.floor(ctx.maxBytes)),
    'grpc.max_send_message_length': -1,
    'grpc.default_authority': authority,
    // The checked address only: no proxy from the environment, no retries elsewhere.
    'grpc.enable_http_proxy': 0,
    'grpc.enable_retries': 0,
    'grpc.service_config_disable_resolution': 1,
    ...(dest.tls ? { 'grpc.ssl_target_name_override': dest.host } : {}),
  };
  const credentials = dest.tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure();
  const client = new grpc.Client(dest.target, credentials, options);
  const name = `${spec.service}.${spec.method}`;
  const deadline = new Date(Date.now() + Math.max(0, ctx.timeoutMs));

  try {
    const response = await new Promise<object>((resolve, reject) => {
      const call = client.makeUnaryRequest<Buffer, object>(
        loaded.definition.path,
        (b) => b,
        (buf) => loaded.definition.responseDeserialize(buf),
        request,
        new grpc.Metadata(),
        { deadline },
        (err, value) => {
          ctx.signal.removeEventListener('abort', onAbort);
          if (err) reject(err);
          else resolve(value ?? {});
        },
      );
      const onAbort = () => call.cancel();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      if (ctx.signal.aborted) onAbort();
    });
    return { response };
  } catch (err) {
    throw statusFailure(err as grpc.ServiceError, name, dest.origin, ctx);
  } finally {
    client.close();
  }
}

function statusFailure(err: grpc.ServiceError, name: string, origin: string, ctx: GrpcContext): ToolFailure {
  if (ctx.signal.aborted) return new ToolFailure('cancelled', `The gRPC call ${name} was stopped.`);
  const details = typeof err.details === 'string' && err.details !== '' ? err.details : (err.message ?? '');
  const shown = details.length > 500 ? `${details.slice(0, 500)}…` : details;
  const status = grpc.status[err.code] ?? String(err.code);
  switch (err.code) {
    case grpc.status.INVALID_ARGUMENT:
      return new ToolFailure('invalid_params', `${name} refused the arguments: ${shown}`);
    case grpc.status.DEADLINE_EXCEEDED:
      return new ToolFailure('timeout', `${name} at ${origin} did not answer within ${ctx.timeoutMs} ms.`, true);
    case grpc.status.UNAVAILABLE:
      return new ToolFailure('handler_error', `${name} at ${origin} is unavailable: ${shown}`, true);
    case grpc.status.CANCELLED:
      return new ToolFailure('cancelled', `The gRPC call ${name} was cancelled: ${shown}`);
    case grpc.status.RESOURCE_EXHAUSTED:
      if (/larger than max|message length|max_receive/i.test(details)) {
        return new ToolFailure('handler_error', `${name} answered more than ${ctx.maxBytes} bytes; the response was refused.`);
      }
      return new ToolFailure('handler_error', `${name} failed (${status}): ${shown}`, true);
    default:
      return new ToolFailure('handler_error', `${name} failed (${status}): ${shown}`);
  }
}

/**
 * The files a proto imports, and theirs, must resolve inside the plugin folder too (the
 * loader would follow `import "../x.proto"` or a symlink out of it). Imports found nowhere
 * in the folder are left to the loader (the bundled google/protobuf types, or its error).
 */
function checkImports(root: string, file: string, shown: string, seen: Set<string>): void {
  if (seen.has(file)) return;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  for (const m of text.matchAll(/\bimport\s+(?:public\s+|weak\s+)?["']([^"']+)["']/g)) {
    const target = m[1] ?? '';
    const refuse = () =>
      new ToolFailure(
        'not_allowed',
        `The plugin's proto file '${shown}' imports '${target}', which is outside the plugin folder; refused.`,
      );
    if (isAbsolute(target) || target.includes('\\')) throw refuse();
    let real: string;
    try {
      real = realpathSync(join(root, target));
    } catch {
      if (target.split('/').includes('..')) throw refuse();
      continue;
    }
    if (!inside(root, real)) throw refuse();
    checkImports(root, real, target, seen);
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

function isTypeDefinition(value: unknown): boolean {
  return typeof (value as { format?: unknown }).format === 'string';
}

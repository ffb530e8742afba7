// A client of the official TypeScript MCP SDK (@modelcontextprotocol/sdk, pinned in package.json) that calls a tool
// through the gate as an MCP task (2025-11-25's experimental tasks: client.experimental.tasks), run by
// McpTasksSdkTest. Every message is printed as one JSON line on stdout: {"type": ...}.
//
//   node task-client.mjs call <tool> <marker> [rich]   list the tools, callToolStream as a task: taskCreated, each
//                                                      taskStatus, then result or error; notifications/tasks/status too
//   node task-client.mjs hold <tool> <marker>          call as a task and stop at taskCreated (its task id)
//   node task-client.mjs get|result|cancel <taskId>    getTask, getTaskResult (waits for the end), cancelTask
//   node task-client.mjs list                          listTasks, every page
//
// With GATE_URL and GATE_API_KEY set; a fresh client (session) each run, as after a restart of either side.
// GATE_TRANSPORT=sse: the HTTP+SSE transport, whose event stream stays open, so the gate's notifications/tasks/status
// reach it; a call then also waits (up to 10 s) for the notification that its task ended before it exits.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { CallToolResultSchema, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const print = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const describe = (error) => ({ code: error?.code, message: error?.message, data: error?.data });

const url = new URL(process.env.GATE_URL ?? '');
const headers = { Authorization: `Bearer ${process.env.GATE_API_KEY}` };
const sse = process.env.GATE_TRANSPORT === 'sse';
const client = new Client({ name: 'ts-task-client', version: '1.0.0' }, { capabilities: {} });
let ended;
const endNotified = new Promise((resolve) => { ended = resolve; });
client.setNotificationHandler(TaskStatusNotificationSchema, (note) => {
  print({ type: 'notification', taskId: note.params.taskId, status: note.params.status,
    statusMessage: note.params.statusMessage });
  if (['completed', 'failed', 'cancelled'].includes(note.params.status)) {
    ended();
  }
});
await client.connect(sse ? new SSEClientTransport(url, { requestInit: { headers } })
  : new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
print({ type: 'connected', protocolVersion: client.getNegotiatedProtocolVersion?.(),
  tasks: client.getServerCapabilities()?.tasks ?? null });

const [mode, ...args] = process.argv.slice(2);
const timeout = 120000;
try {
  if (mode === 'call' || mode === 'hold') {
    const [tool, marker, rich] = args;
    const tools = await client.listTools();
    print({ type: 'tools', taskSupport: tools.tools.find((t) => t.name === tool)?.execution?.taskSupport ?? null });
    const stream = client.experimental.tasks.callToolStream(
      { name: tool, arguments: { marker, ...(rich ? { rich: true } : {}) } }, CallToolResultSchema, { timeout });
    for await (const message of stream) {
      if (message.type === 'error') {
        print({ type: 'error', error: describe(message.error) });
      } else {
        print(message);
      }
      if (mode === 'hold' && message.type === 'taskCreated') {
        break;
      }
    }
    if (sse && mode === 'call') {
      await Promise.race([endNotified, new Promise((resolve) => setTimeout(resolve, 10000))]);
    }
  } else if (mode === 'get') {
    print({ type: 'task', task: await client.experimental.tasks.getTask(args[0], { timeout }) });
  } else if (mode === 'result') {
    print({ type: 'result', result: await client.experimental.tasks.getTaskResult(args[0], CallToolResultSchema, { timeout }) });
  } else if (mode === 'cancel') {
    print({ type: 'cancelled', task: await client.experimental.tasks.cancelTask(args[0], { timeout }) });
  } else if (mode === 'list') {
    const tasks = [];
    let cursor;
    do {
      const page = await client.experimental.tasks.listTasks(cursor, { timeout });
      tasks.push(...page.tasks);
      cursor = page.nextCursor;
    } while (cursor);
    print({ type: 'list', tasks });
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} catch (error) {
  print({ type: 'error', error: describe(error) });
}
await client.close();

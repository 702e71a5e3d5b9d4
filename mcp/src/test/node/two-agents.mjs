// Two agents share taskagent's queue through the official TypeScript MCP SDK client: alice creates a task,
// claims it, comments and hands it to bob; bob claims it, comments and completes it. Each agent has a
// connection of its own (over stdio: a server process of its own, both on one database).
//
//   node two-agents.mjs <revision> http <endpoint URL>
//   node two-agents.mjs <revision> stdio <java> <runnable jar> <store JDBC URL>
//
// <revision> is 2025-11-25 (the v1 SDK, @modelcontextprotocol/sdk: initialize, a session) or 2026-07-28
// (the v2 SDK, @modelcontextprotocol/client, pinned to that revision: server/discover, stateless).
// Prints one JSON line with the task id on success; exits with 1 and a message on the first surprise.
const [revision, mode, ...rest] = process.argv.slice(2);

const STATELESS = '2026-07-28';
let Client, StdioClientTransport, StreamableHTTPClientTransport;
if (revision === STATELESS) {
  ({ Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client'));
  ({ StdioClientTransport } = await import('@modelcontextprotocol/client/stdio'));
} else if (revision === '2025-11-25') {
  ({ Client } = await import('@modelcontextprotocol/sdk/client/index.js'));
  ({ StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js'));
  ({ StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js'));
} else {
  throw new Error(`revision must be 2025-11-25 or ${STATELESS}, was ${revision}`);
}

function transportFor(agent) {
  if (mode === 'http') {
    return new StreamableHTTPClientTransport(new URL(rest[0]));
  }
  if (mode === 'stdio') {
    const [java, jar, store] = rest;
    return new StdioClientTransport({
      command: java,
      args: ['-jar', jar, '--store', store, '--stdio', '--reclaim-interval', 'off'],
      stderr: 'inherit',
    });
  }
  throw new Error(`mode must be http or stdio, was ${mode}`);
}

async function connect(agent) {
  const options = revision === STATELESS ? { versionNegotiation: { mode: { pin: STATELESS } } } : {};
  const client = new Client({ name: `taskagent-test-${agent}`, version: '1.0.0' }, options);
  await client.connect(transportFor(agent));
  if (revision === STATELESS) {
    expect(client.getProtocolEra() === 'modern', `${agent} connected in the ${client.getProtocolEra()} era`);
  }
  return client;
}

function expect(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

// Calls a tool and returns its result; a result with isError is a failure of the test.
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.map((part) => part.text).join('\n');
  expect(!result.isError, `${name} answered an error: ${text}`);
  return { text, structured: result.structuredContent };
}

const alice = await connect('alice');
const bob = await connect('bob');
try {
  const { tools } = await alice.listTools();
  const signup = tools.find((tool) => tool.name === 'signup_for_task');
  expect(signup, 'signup_for_task is not listed');
  expect(signup.annotations && signup.annotations.readOnlyHint === false, 'signup_for_task is not marked as a write');
  expect(signup.outputSchema, 'signup_for_task has no output schema');

  const created = await call(alice, 'create_task', {
    description: 'Publish the release notes',
    assignee: 'alice',
    created_by: 'alice',
    priority: 1,
  });
  const taskId = Number(/#(\d+)/.exec(created.text)[1]);

  // The SDK validates structuredContent against the tool's outputSchema before handing it over.
  const aliceClaim = await call(alice, 'signup_for_task', { agent_name: 'alice' });
  expect(aliceClaim.structured.task.id === taskId, `alice claimed ${JSON.stringify(aliceClaim.structured)}`);
  expect(aliceClaim.structured.task.attempt === 1, 'alice\'s claim is not attempt 1');
  await call(alice, 'add_comment', { task_id: taskId, author: 'alice', comment: 'Drafted the notes.' });
  await call(alice, 'move_task', {
    task_id: taskId,
    current_agent: 'alice',
    new_agent: 'bob',
    comment: 'Bob, please publish them.',
    attempt: 1,
  });

  const bobClaim = await call(bob, 'signup_for_task', { agent_name: 'bob' });
  expect(bobClaim.structured.task.id === taskId, `bob claimed ${JSON.stringify(bobClaim.structured)}`);
  const attempt = bobClaim.structured.task.attempt;
  await call(bob, 'add_comment', { task_id: taskId, author: 'bob', comment: 'Published.' });
  const done = await call(bob, 'complete_task', {
    task_id: taskId,
    agent_name: 'bob',
    attempt,
    status: 'success',
    comment: 'Live on the site.',
  });
  expect(done.text === `Task #${taskId} completed: success`, `complete_task said: ${done.text}`);

  const refused = await bob.callTool({
    name: 'complete_task',
    arguments: { task_id: taskId, agent_name: 'bob', attempt, status: 'success' },
  });
  expect(refused.isError === true, 'completing twice was not refused');

  console.log(JSON.stringify({ taskId, attempt }));
} finally {
  await alice.close();
  await bob.close();
}

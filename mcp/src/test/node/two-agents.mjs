// Two agents share taskagent's queue through the official TypeScript MCP SDK client: alice creates a task,
// claims it, comments and hands it to bob; bob claims it, comments and completes it. Each agent has a
// connection of its own (over stdio: a server process of its own, both on one database).
//
//   node two-agents.mjs <revision> http <endpoint URL>
//   node two-agents.mjs <revision> stdio <java> <runnable jar> <store JDBC URL>
//
// <revision> is 2025-11-25 (the v1 SDK, @modelcontextprotocol/sdk: initialize, a session) or 2026-07-28
// (the v2 SDK, @modelcontextprotocol/client, pinned to that revision: server/discover, stateless).
// Alice also watches the task as a resource (taskagent://tasks/<id>): resources/subscribe on 2025-11-25,
// subscriptions/listen on 2026-07-28. Bob's changes reach her through the store's event feed (over stdio
// from another server process), and she reads the task as Markdown and as JSON at the end.
// Prints one JSON line with the task id on success; exits with 1 and a message on the first surprise.
const [revision, mode, ...rest] = process.argv.slice(2);

const STATELESS = '2026-07-28';
let Client, StdioClientTransport, StreamableHTTPClientTransport, ResourceUpdatedNotificationSchema;
if (revision === STATELESS) {
  ({ Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client'));
  ({ StdioClientTransport } = await import('@modelcontextprotocol/client/stdio'));
} else if (revision === '2025-11-25') {
  ({ Client } = await import('@modelcontextprotocol/sdk/client/index.js'));
  ({ StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js'));
  ({ StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js'));
  ({ ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js'));
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

// Watches a resource: calls onUpdate with the URI of each notifications/resources/updated; returns a stop function.
async function watch(client, uri, onUpdate) {
  if (revision === STATELESS) {
    client.setNotificationHandler('notifications/resources/updated', (n) => onUpdate(n.params.uri));
    const subscription = await client.listen({ resourceSubscriptions: [uri] });
    expect(
      (subscription.honoredFilter.resourceSubscriptions || []).includes(uri),
      `the server did not honour the subscription: ${JSON.stringify(subscription.honoredFilter)}`,
    );
    return () => subscription.close();
  }
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => onUpdate(n.params.uri));
  await client.subscribeResource({ uri });
  return () => client.unsubscribeResource({ uri });
}

async function waitFor(what, condition, millis = 20000) {
  const deadline = Date.now() + millis;
  while (!condition()) {
    expect(Date.now() < deadline, `timed out after ${millis} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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

  const taskUri = `taskagent://tasks/${taskId}`;
  const updates = [];
  const stopWatching = await watch(alice, taskUri, (uri) => updates.push(uri));

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

  await waitFor(`a notifications/resources/updated for ${taskUri}`, () => updates.includes(taskUri));
  expect(updates.every((uri) => uri === taskUri), `alice was told of resources she did not watch: ${updates}`);
  await stopWatching();
  const markdown = (await alice.readResource({ uri: taskUri })).contents[0];
  expect(markdown.mimeType === 'text/markdown', `the task's mimeType is ${markdown.mimeType}`);
  expect(markdown.text.startsWith(`# Task ${taskId}: Publish the release notes`), `the Markdown: ${markdown.text}`);
  expect(markdown.text.includes('- **Status:** success'), `the Markdown has no success status: ${markdown.text}`);
  const json = JSON.parse((await alice.readResource({ uri: `${taskUri}.json` })).contents[0].text);
  expect(json.id === taskId && json.status === 'success' && json.assignee === 'bob', `the JSON: ${JSON.stringify(json)}`);

  console.log(JSON.stringify({ taskId, attempt }));
} finally {
  await alice.close();
  await bob.close();
}

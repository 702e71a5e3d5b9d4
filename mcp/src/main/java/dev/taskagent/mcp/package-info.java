/**
 * The MCP server (API): {@link dev.taskagent.mcp.TaskMcpServer} serves the queue's tools to agents in any
 * language over stdio or Streamable HTTP, on the official MCP Java SDK. The runnable jar's command line
 * lives in {@code dev.taskagent.mcp.internal} (not API).
 */
package dev.taskagent.mcp;

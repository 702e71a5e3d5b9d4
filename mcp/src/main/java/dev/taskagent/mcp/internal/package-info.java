/**
 * Implementation detail (not API): the command line of the runnable jar. Use {@link
 * dev.taskagent.mcp.TaskMcpServer} to embed the server.
 */
package dev.taskagent.mcp.internal;

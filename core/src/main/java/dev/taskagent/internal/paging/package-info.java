/**
 * The paging of a session's listing in the tools that list one: the dialects' {@code TaskList} and {@code
 * TodoRead} and the MCP server's {@code list_tasks}.
 *
 * <p>Tier: internal; exported only to the MCP server, may change without notice.
 */
package dev.taskagent.internal.paging;

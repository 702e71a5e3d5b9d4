/**
 * The one JSON model of a task, with its views, used by the queue tools, the MCP server, the board and the
 * event feed.
 *
 * <p>Tier: internal; exported only to the library's own modules, may change without notice.
 */
package dev.taskagent.internal.json;

/**
 * Tools a model can call: {@link dev.taskagent.tool.Tool}, {@link dev.taskagent.tool.ToolResult} (text plus an error flag), the {@link dev.taskagent.tool.Toolbox} that dispatches calls, and JSON-schema helpers. <p>Tier: API.
 */
package dev.taskagent.tool;

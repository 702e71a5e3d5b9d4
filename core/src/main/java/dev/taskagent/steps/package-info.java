/**
 * Markdown steps: a byte-exact checklist parser, the streamed step-marker parser and step execution with live ticks. <p>Tier: API.
 */
package dev.taskagent.steps;

/**
 * The extraction agent: reads a batch of conversation messages and keeps the session's task list true through eight tools. <p>Tier: API.
 */
package dev.taskagent.extraction;

/**
 * Events about tasks, told to listeners after the transaction that caused them committed. <p>Tier: API.
 */
package dev.taskagent.event;

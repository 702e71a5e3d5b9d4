/**
 * The root of the library's exceptions. <p>Tier: API.
 */
package dev.taskagent;

/**
 * Implementation detail shared by the packages of this module. <p>Tier: internal; not exported, may change without notice.
 */
package dev.taskagent.internal;

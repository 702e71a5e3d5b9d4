/** Helpers shared by the kit's suites; not exported, not API. */
package dev.taskagent.testkit.internal;

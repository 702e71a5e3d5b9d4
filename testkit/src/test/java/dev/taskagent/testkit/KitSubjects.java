package dev.taskagent.testkit;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.ReferenceTaskStore.Defect;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The conformance kit bound to the reference store, correct and broken. Only {@link KitRun} runs these
 * classes, through the JUnit Platform Launcher: they are nested classes of a class whose name does not
 * end in {@code Test}, so surefire does not find them, and anything else that runs them (an IDE running a
 * whole package) finds them disabled.
 */
final class KitSubjects {
    private KitSubjects() {}

    /** The kit against the reference store with some defects switched on. */
    @ExtendWith(OnlyThroughKitRun.class)
    abstract static class Subject extends TaskStoreConformanceTest {
        abstract Set<Defect> defects();

        @Override
        protected TaskStore createStore(Clock clock) {
            return new ReferenceTaskStore(clock, defects());
        }

        @Override
        protected Optional<StorageFault> storageFault(TaskStore store) {
            return Optional.of(((ReferenceTaskStore) store).storageFault());
        }
    }

    /** Enables the subjects when {@link KitRun} runs them, and only then. */
    static final class OnlyThroughKitRun implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(KitRun.SUBJECTS_PARAMETER).isPresent()
                    ? ConditionEvaluationResult.enabled("run by KitRun")
                    : ConditionEvaluationResult.disabled(
                            "kit subjects (broken stores among them) run only through TaskStoreConformanceKitTest");
        }
    }

    static final class Reference extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.noneOf(Defect.class);
        }
    }

    /** One subject per defect, named after it. */
    static Class<? extends Subject> withDefect(Defect defect) {
        return switch (defect) {
            case RACY_CLAIM -> RacyClaim.class;
            case CLAIM_GIVES_UP_ON_CONFLICT -> ClaimGivesUpOnConflict.class;
            case CLAIMS_ARCHIVED -> ClaimsArchived.class;
            case NO_ROLLBACK -> NoRollback.class;
            case DIRTY_READS -> DirtyReads.class;
            case LOSES_CONCURRENT_APPENDS -> LosesConcurrentAppends.class;
            case IGNORES_EXPECTED_VERSION -> IgnoresExpectedVersion.class;
            case INSERT_DOES_NOT_RENUMBER -> InsertDoesNotRenumber.class;
            case APPENDS_KEEP_VERSION -> AppendsKeepVersion.class;
            case MESSAGES_NOT_MOVED -> MessagesNotMoved.class;
            case CASE_INSENSITIVE_IDS -> CaseInsensitiveIds.class;
            case TRIMS_TEXT -> TrimsText.class;
            case LENIENT_ARGUMENTS -> LenientArguments.class;
            case LEAKY_TRANSACTION -> LeakyTransaction.class;
            case NESTED_JOINS_OUTER -> NestedJoinsOuter.class;
            case RAW_STORAGE_FAILURES -> RawStorageFailures.class;
            case ATTEMPT_NOT_COUNTED -> AttemptNotCounted.class;
            case UNFENCED_LEASE_WRITES -> UnfencedLeaseWrites.class;
            case LEASE_KEPT_OFF_RUNNING -> LeaseKeptOffRunning.class;
            case CLAIM_MISSES_REAPER_COMMENTS -> ClaimMissesReaperComments.class;
            case RECLAIMS_LIVE_LEASES -> ReclaimsLiveLeases.class;
            case RACY_RECLAIM -> RacyReclaim.class;
            case CLAIM_SKIPS_LOCKED_TASKS -> ClaimSkipsLockedTasks.class;
            case FEED_APPENDS_BEFORE_COMMIT -> FeedAppendsBeforeCommit.class;
            case FEED_MISSES_UNRECORDED_CHANGES -> FeedMissesUnrecordedChanges.class;
            case CLAIM_EVENT_TWICE -> ClaimEventTwice.class;
            case COUNTS_ARCHIVED_TASKS -> CountsArchivedTasks.class;
            case CLAIMS_BLOCKED_TASKS -> ClaimsBlockedTasks.class;
            case NO_CYCLE_CHECK -> NoCycleCheck.class;
            case CLOSES_OVER_OPEN_CHILDREN -> ClosesOverOpenChildren.class;
            case SEARCH_PAGES_BY_OFFSET -> SearchPagesByOffset.class;
            case CLAIMS_SCHEDULED_TASKS -> ClaimsScheduledTasks.class;
            case QUEUE_PAGES_BY_OFFSET -> QueuePagesByOffset.class;
            case DEAD_LETTERS_WITHOUT_WATERMARK -> DeadLettersWithoutWatermark.class;
            case RACY_REQUEST_IDS -> RacyRequestIds.class;
            case REQUEST_IDS_NEVER_FORGOTTEN -> RequestIdsNeverForgotten.class;
            case REQUEST_IDS_PER_STORE -> RequestIdsPerStore.class;
        };
    }

    static final class RacyClaim extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.RACY_CLAIM);
        }
    }

    static final class ClaimGivesUpOnConflict extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.CLAIM_GIVES_UP_ON_CONFLICT);
        }
    }

    static final class ClaimsArchived extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.CLAIMS_ARCHIVED);
        }
    }

    static final class NoRollback extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.NO_ROLLBACK);
        }
    }

    static final class DirtyReads extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.DIRTY_READS);
        }
    }

    static final class LosesConcurrentAppends extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.LOSES_CONCURRENT_APPENDS);
        }
    }

    static final class IgnoresExpectedVersion extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.IGNORES_EXPECTED_VERSION);
        }
    }

    static final class InsertDoesNotRenumber extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.INSERT_DOES_NOT_RENUMBER);
        }
    }

    static final class AppendsKeepVersion extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.APPENDS_KEEP_VERSION);
        }
    }

    static final class MessagesNotMoved extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.MESSAGES_NOT_MOVED);
        }
    }

    static final class CaseInsensitiveIds extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.CASE_INSENSITIVE_IDS);
        }
    }

    static final class TrimsText extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.TRIMS_TEXT);
        }
    }

    static final class LenientArguments extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.LENIENT_ARGUMENTS);
        }
    }

    static final class LeakyTransaction extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.LEAKY_TRANSACTION);
        }
    }

    static final class NestedJoinsOuter extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.NESTED_JOINS_OUTER);
        }
    }

    static final class RawStorageFailures extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.RAW_STORAGE_FAILURES);
        }
    }

    static final class AttemptNotCounted extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.ATTEMPT_NOT_COUNTED);
        }
    }

    static final class UnfencedLeaseWrites extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.UNFENCED_LEASE_WRITES);
        }
    }

    static final class LeaseKeptOffRunning extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.LEASE_KEPT_OFF_RUNNING);
        }
    }

    static final class ReclaimsLiveLeases extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.RECLAIMS_LIVE_LEASES);
        }
    }

    static final class ClaimMissesReaperComments extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.CLAIM_MISSES_REAPER_COMMENTS);
        }
    }

    static final class RacyReclaim extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.RACY_RECLAIM);
        }
    }

    static final class ClaimSkipsLockedTasks extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.CLAIM_SKIPS_LOCKED_TASKS);
        }
    }

    static final class FeedAppendsBeforeCommit extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.FEED_APPENDS_BEFORE_COMMIT);
        }
    }

    static final class FeedMissesUnrecordedChanges extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.FEED_MISSES_UNRECORDED_CHANGES);
        }
    }

    static final class ClaimEventTwice extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.CLAIM_EVENT_TWICE);
        }
    }

    static final class CountsArchivedTasks extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.COUNTS_ARCHIVED_TASKS);
        }
    }

    static final class ClaimsBlockedTasks extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.CLAIMS_BLOCKED_TASKS);
        }
    }

    static final class ClaimsScheduledTasks extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.CLAIMS_SCHEDULED_TASKS);
        }
    }

    static final class NoCycleCheck extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.NO_CYCLE_CHECK);
        }
    }

    static final class ClosesOverOpenChildren extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.CLOSES_OVER_OPEN_CHILDREN);
        }
    }

    static final class SearchPagesByOffset extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.SEARCH_PAGES_BY_OFFSET);
        }
    }

    static final class QueuePagesByOffset extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.QUEUE_PAGES_BY_OFFSET);
        }
    }

    static final class DeadLettersWithoutWatermark extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.DEAD_LETTERS_WITHOUT_WATERMARK);
        }
    }

    static final class RacyRequestIds extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.RACY_REQUEST_IDS);
        }
    }

    static final class RequestIdsNeverForgotten extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.REQUEST_IDS_NEVER_FORGOTTEN);
        }
    }

    static final class RequestIdsPerStore extends Subject {
        @Override
        Set<Defect> defects() {
            return EnumSet.of(Defect.REQUEST_IDS_PER_STORE);
        }
    }
}

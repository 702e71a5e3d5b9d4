package dev.taskagent.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.testkit.ReferenceTaskStore.Defect;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Tests the conformance kit itself: it passes a correct store, and it fails each deliberately broken
 * store on exactly the rules that store breaks. The kit runs through the JUnit Platform Launcher
 * against the subjects in {@link KitSubjects}.
 */
class TaskStoreConformanceKitTest {

    /** Every rule of the contract in TaskStore's javadoc; TS-1.7 is permissive and needs no test. */
    private static final List<String> RULES = List.of(
            "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "3.1",
            "3.2", "3.3", "3.4", "3.5", "3.6", "4.1", "4.2", "4.3", "4.4", "5.1", "5.2", "5.3", "5.4", "5.5", "5.6",
            "5.7", "6.1", "6.2", "6.3", "6.4", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.1", "8.2",
            "8.3", "9.1", "9.2", "9.3", "9.4", "9.5", "9.6", "9.7", "9.8", "9.9", "10.1", "10.2", "10.3", "10.4",
            "10.5", "10.6", "10.7", "11.1", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.7", "12.8", "13.1",
            "13.2", "13.3", "13.4", "13.5", "13.6");

    private static final Pattern TEST_NAME = Pattern.compile("ts(\\d{1,2})(\\d)_[a-z][A-Za-z]+");

    @Test
    void correctStorePassesEveryTestOfTheKit() {
        KitRun run = KitRun.of(KitSubjects.Reference.class);

        assertThat(run.containerFailures()).isEmpty();
        assertThat(run.failed()).isEmpty();
        assertThat(run.skipped()).isEmpty();
        assertThat(run.passed()).isEqualTo(kitTestNames());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Defect.class)
    void brokenStoreFailsExactlyTheTestsOfTheRulesItBreaks(Defect defect) {
        Expectation expected = expectation(defect);

        KitRun run = KitRun.of(KitSubjects.withDefect(defect));

        assertThat(run.containerFailures()).isEmpty();
        assertThat(run.skipped()).isEmpty();
        assertThat(run.failed().keySet())
                .as("failed tests of the store with %s", defect)
                .containsAll(expected.mustFail());
        Set<String> unexpected = new TreeSet<>(run.failed().keySet());
        unexpected.removeAll(expected.mustFail());
        unexpected.removeAll(expected.mayFail());
        assertThat(run.failed())
                .as("tests the store with %s failed although it keeps their rules", defect)
                .doesNotContainKeys(unexpected.toArray(String[]::new));
    }

    @Test
    void kitHasATestForEveryRuleOfTheContract() {
        Set<String> citedRules = kitTestNames().stream()
                .map(TEST_NAME::matcher)
                .filter(Matcher::matches)
                .map(matcher -> matcher.group(1) + "." + matcher.group(2))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(citedRules).containsExactlyInAnyOrderElementsOf(RULES);
    }

    @Test
    void everyKitTestIsNamedAfterTheRuleItChecks() {
        assertThat(kitTestNames()).hasSizeGreaterThanOrEqualTo(40).allSatisfy(name -> assertThat(name)
                .matches(TEST_NAME));
    }

    @Test
    void everyExpectedFailureNamesATestOfTheKit() {
        Set<String> named = new HashSet<>();
        for (Defect defect : Defect.values()) {
            named.addAll(expectation(defect).mustFail());
            named.addAll(expectation(defect).mayFail());
        }

        assertThat(kitTestNames()).containsAll(named);
    }

    /** Which tests a store with the defect must fail, and which ones it may fail besides (races). */
    private static Expectation expectation(Defect defect) {
        return switch (defect) {
            case RACY_CLAIM ->
                new Expectation(
                        Set.of("ts72_concurrentClaimersOnOneAssigneeClaimEachTaskExactlyOnce"),
                        Set.of(
                                "ts75_concurrentClaimersNeverComeBackEmptyWhileTasksRemain",
                                "ts78_concurrentBatchClaimsClaimEachTaskExactlyOnce",
                                "ts122_concurrentClaimersClaimEachReadyTaskOnceAndNoBlockedOne"));
            case CLAIM_GIVES_UP_ON_CONFLICT ->
                new Expectation(
                        Set.of("ts75_concurrentClaimersNeverComeBackEmptyWhileTasksRemain"),
                        Set.of(
                                "ts72_concurrentClaimersOnOneAssigneeClaimEachTaskExactlyOnce",
                                "ts78_concurrentBatchClaimsClaimEachTaskExactlyOnce",
                                "ts122_concurrentClaimersClaimEachReadyTaskOnceAndNoBlockedOne"));
            case CLAIMS_ARCHIVED ->
                Expectation.exactly(
                        "ts73_claimWithNothingClaimableReturnsEmptyAndWritesNothing",
                        "ts74_claimFollowsReassignmentAndArchiving",
                        "ts74_claimNeverReturnsAnotherAssigneesArchivedOrStartedTask");
            case NO_ROLLBACK ->
                Expectation.exactly(
                        "ts12_checkedExceptionThrownSneakilyIsRethrownAsIsAndRollsBack",
                        "ts12_errorIsRethrownAsIsAndRollsBack",
                        "ts12_exceptionRollsBackAppends",
                        "ts12_exceptionRollsBackClaims",
                        "ts12_exceptionRollsBackInserts",
                        "ts12_exceptionRollsBackMessageLinks",
                        "ts12_exceptionRollsBackUpdates",
                        "ts12_exceptionThrownByTheStoreRollsBackTheUnitOfWorkItLeaves",
                        "ts13_otherTransactionsNeverSeeUncommittedWrites",
                        "ts16_storageFailureSurfacesAsTaskStoreExceptionAndRollsBack",
                        "ts123_aBlockerThatSucceedsUnblocksItsDependantsInTheSameUnitOfWork",
                        "ts135_searchSeesWhatCommittedBefore",
                        "ts56_anAppendThatRolledBackLeavesItsRequestIdFree");
            case DIRTY_READS ->
                new Expectation(
                        Set.of("ts13_otherTransactionsNeverSeeUncommittedWrites"),
                        Set.of("ts13_otherTransactionsNeverSeePartOfAUnitOfWork"));
            case LOSES_CONCURRENT_APPENDS ->
                new Expectation(
                        Set.of("ts53_concurrentProgressAppendsAreNeverLost"),
                        // A retry that comes in while the first append's read-modify-write is under way sees the
                        // task as it was before.
                        Set.of("ts57_ofConcurrentAppendsWithOneRequestIdExactlyOneWrites"));
            case IGNORES_EXPECTED_VERSION ->
                Expectation.exactly(
                        "ts43_ofTwoConcurrentUpdatesExpectingTheSameVersionExactlyOneWins",
                        "ts43_updateExpectingAnOldVersionIsRefusedAndWritesNothing");
            case INSERT_DOES_NOT_RENUMBER ->
                Expectation.exactly(
                        "ts22_listTasksReturnsTheSessionsTasksInOrder",
                        "ts24_unitOfWorkReadsItsOwnWrites",
                        "ts31_insertAfterZeroPutsTheTaskFirst",
                        "ts31_insertAtShiftsLaterOrders",
                        "ts35_concurrentInsertsIntoOneSessionKeepOrdersContiguous",
                        "ts35_ordersStayContiguousAfterAnySequenceOfInserts");
            case APPENDS_KEEP_VERSION ->
                Expectation.exactly(
                        "ts21_findTaskReturnsEveryField",
                        "ts42_updatesAndAppendsIncrementTheVersionAndStampUpdatedAt",
                        "ts43_updateExpectingAnOldVersionIsRefusedAndWritesNothing",
                        "ts53_concurrentCommentsAndLinksAreNeverLost",
                        "ts53_concurrentProgressAppendsAreNeverLost");
            case MESSAGES_NOT_MOVED ->
                Expectation.exactly(
                        "ts24_unitOfWorkReadsItsOwnWrites",
                        "ts62_linkingAMessageToAnotherTaskMovesIt",
                        "ts62_linkingMovesMessagesBetweenTasksAndThePlanningSection");
            case CASE_INSENSITIVE_IDS ->
                Expectation.exactly(
                        "ts22_sessionIdsAreComparedExactly",
                        "ts54_idsAndNamesAreStoredVerbatim",
                        "ts62_messageIdsAreComparedExactly",
                        "ts74_assigneesAreComparedExactly");
            case TRIMS_TEXT -> Expectation.exactly("ts54_textsAreStoredVerbatim");
            case LENIENT_ARGUMENTS ->
                Expectation.exactly(
                        "ts33_negativePositionIsRefusedAndWritesNothing",
                        "ts81_blankSessionIdsAndNamesThrowIllegalArgumentAndWriteNothing",
                        "ts81_blankTextsThrowIllegalArgumentAndWriteNothing",
                        "ts81_nonPositiveTaskIdsThrowIllegalArgumentAndWriteNothing",
                        "ts81_textsAndNamesOverTheLimitThrowIllegalArgumentAndWriteNothing",
                        "ts82_textsHoldingANulOrAnUnpairedSurrogateAreRefusedNamingTheFieldAndWriteNothing",
                        "ts83_agentNamesHoldingAControlCharacterAreRefusedNamingTheFieldAndWriteNothing",
                        "ts95_leaseArgumentsOutOfBoundsAreRefusedAndWriteNothing",
                        "ts96_aBatchCompletionOutOfBoundsIsRefusedAndWritesNothing",
                        "ts55_aBadRequestIdIsRefusedNamingItAndWritesNothing");
            case ATTEMPT_NOT_COUNTED ->
                Expectation.exactly(
                        "ts91_everyClaimOfATaskCountsOneMoreAttempt",
                        "ts93_releasePutsTheTaskBackInTheQueueAndKeepsItsAttempt",
                        "ts94_aTaskThatUsedItsLastAttemptFailsWithADeadLetterComment");
            case UNFENCED_LEASE_WRITES ->
                new Expectation(
                        Set.of(
                                "ts92_writesAboutAClaimHeldByAnotherAgentOrAttemptAreRefusedAndWriteNothing",
                                "ts92_writesAboutATaskThatIsNotRunningAreRefused",
                                "ts96_aBatchCompletionEndsTheClaimsStillHeldAndLeavesTheOthersAsTheyWere"),
                        Set.of("ts94_aReclaimAndTheWorkersCompletingTheSameTasksNeverBothWin"));
            case LEASE_KEPT_OFF_RUNNING ->
                Expectation.exactly(
                        "ts93_anUpdateThatTakesATaskOutOfRunningClearsItsLease",
                        "ts93_completeSetsTheOutcomeAndClearsTheLease",
                        "ts93_releasePutsTheTaskBackInTheQueueAndKeepsItsAttempt",
                        "ts94_aTaskThatUsedItsLastAttemptFailsWithADeadLetterComment",
                        "ts94_reclaimTakesBackExactlyTheExpiredClaims",
                        "ts96_aBatchCompletionEndsTheClaimsStillHeldAndLeavesTheOthersAsTheyWere");
            case CLAIM_MISSES_REAPER_COMMENTS ->
                Expectation.exactly("ts77_aClaimReturnsExactlyWhatAReadReturnsAfterEveryKindOfWrite");
            case RECLAIMS_LIVE_LEASES -> Expectation.exactly("ts94_reclaimTakesBackExactlyTheExpiredClaims");
            case RACY_RECLAIM ->
                new Expectation(
                        Set.of("ts94_concurrentReclaimsTakeEachExpiredClaimExactlyOnce"),
                        Set.of("ts94_aReclaimAndTheWorkersCompletingTheSameTasksNeverBothWin"));
            case CLAIM_SKIPS_LOCKED_TASKS ->
                new Expectation(
                        Set.of("ts76_claimWaitsForATaskLockedByAUnitOfWorkThatIsNotAClaim"),
                        // It steps over tasks held by other claimers too: TS-7.6 allows it, TS-7.5 does not.
                        Set.of(
                                "ts72_concurrentClaimersOnOneAssigneeClaimEachTaskExactlyOnce",
                                "ts74_concurrentAssigneesClaimOnlyTheirOwnTasksInClaimOrder",
                                "ts75_concurrentClaimersNeverComeBackEmptyWhileTasksRemain",
                                "ts78_concurrentBatchClaimsClaimEachTaskExactlyOnce",
                                "ts122_concurrentClaimersClaimEachReadyTaskOnceAndNoBlockedOne"));
            case FEED_APPENDS_BEFORE_COMMIT ->
                Expectation.exactly("ts101_everyCommittedChangeAppendsAnEventAndRolledBackWorkNone");
            case FEED_MISSES_UNRECORDED_CHANGES ->
                Expectation.exactly("ts101_everyCommittedChangeAppendsAnEventAndRolledBackWorkNone");
            case CLAIM_EVENT_TWICE ->
                Expectation.exactly("ts107_aClaimAppendsOneClaimedEventWhetherOrNotTheUnitOfWorkRecordsOne");
            case COUNTS_ARCHIVED_TASKS ->
                Expectation.exactly("ts111_countTasksCountsPendingAndRunningTasksAndExpiredLeasesButNotArchivedOnes");
            case LEAKY_TRANSACTION ->
                Expectation.exactly(
                        "ts14_transactionIsUnusableAfterItsUnitOfWorkReturned",
                        "ts14_transactionIsUnusableFromAnotherThread");
            case NESTED_JOINS_OUTER ->
                Expectation.exactly("ts15_nestedInTransactionIsRefusedAndTheOuterUnitStaysUsable");
            case RAW_STORAGE_FAILURES ->
                Expectation.exactly("ts16_storageFailureSurfacesAsTaskStoreExceptionAndRollsBack");
            case CLAIMS_BLOCKED_TASKS ->
                Expectation.exactly(
                        "ts122_aClaimHandsOutReadyTasksOnlyInClaimOrder",
                        "ts122_concurrentClaimersClaimEachReadyTaskOnceAndNoBlockedOne");
            case NO_CYCLE_CHECK ->
                Expectation.exactly(
                        "ts124_badDependenciesAreRefusedAndNothingIsWritten",
                        "ts124_concurrentDependenciesThatTogetherCloseACycleCommitOnce");
            case CLOSES_OVER_OPEN_CHILDREN ->
                Expectation.exactly(
                        "ts127_successOverOpenSubtasksIsRefusedUnlessAskedFor",
                        "ts96_aBatchSuccessUnblocksDependantsAndLeavesAParentWithOpenSubtasksRunning");
            case SEARCH_PAGES_BY_OFFSET ->
                Expectation.exactly("ts134_pagingReturnsEveryMatchOnceWhileTasksAreCreatedBetweenPages");
            case CLAIMS_SCHEDULED_TASKS ->
                Expectation.exactly(
                        "ts94_aTaskPutBackByAReclaimWithABackoffWaitsForIt",
                        "ts97_aTaskWaitsForItsNotBeforeTimeThenIsClaimedInOrder",
                        "ts98_delayMakesATaskWaitAndZeroMakesItClaimableAgain");
            case QUEUE_PAGES_BY_OFFSET ->
                Expectation.exactly(
                        "ts27_queuePagingReturnsEveryTaskOnceWhileTasksOfAnyPriorityAreCreatedBetweenPages");
            case DEAD_LETTERS_WITHOUT_WATERMARK ->
                Expectation.exactly("ts28_deadLetterPagesListWhatFailedBeforeTheFirstOnceAndRefuseOtherCursors");
            case RACY_REQUEST_IDS -> Expectation.exactly("ts57_ofConcurrentAppendsWithOneRequestIdExactlyOneWrites");
            case REQUEST_IDS_NEVER_FORGOTTEN ->
                Expectation.exactly("ts56_aTaskHoldsTheRequestIdsOfItsLastAppendsAndForgetsOlderOnes");
            case REQUEST_IDS_PER_STORE ->
                Expectation.exactly("ts55_anAppendWithARequestIdTheTaskHoldsWritesNothingAndAnswersTheTask");
        };
    }

    private static Set<String> kitTestNames() {
        return Arrays.stream(TaskStoreConformanceTest.class.getDeclaredMethods())
                .filter(method -> method.isAnnotationPresent(Test.class))
                .map(Method::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The kit tests a broken store must fail, and those it may fail too because the race that shows its
     * defect there does not happen on every run.
     */
    private record Expectation(Set<String> mustFail, Set<String> mayFail) {
        static Expectation exactly(String... tests) {
            return new Expectation(Set.of(tests), Set.of());
        }
    }
}

package io.fairledger.portal;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.fairledger.accounting.StatementView;
import io.fairledger.accounting.WhatIfService;
import io.fairledger.live.LiveView;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The admin's what-if preview: the latest periods replayed with today's settings and with the proposed ones (the same
 * replay, {@link WhatIfService#whatIf}), period by period and tenant by tenant side by side.
 */
final class WhatIfComparison {

    private WhatIfComparison() {
    }

    /** The replayed range: {@code (from, until]}. */
    record Range(Instant from, Instant until) {
    }

    /**
     * The last {@code periods} periods the newest event has ended (a period lasts what the settings say, a day by
     * default), not before the cluster's registration nor longer than {@code maxWindow} (a what-if's maximum). The
     * open period is left out: replayed to its end it would run every task on past the newest event, as if it had
     * gone on until then; empty ({@code from} equal to {@code until}) while no period has ended.
     */
    static Range range(LedgerSettings settings, LiveView view, int periods, Duration maxWindow) {
        Duration length = settings.nominalPeriod();
        Instant until = Instant.ofEpochMilli(view.openPeriod().start());
        Instant from = until.minus(length.multipliedBy(periods));
        Instant earliest = until.minus(maxWindow);
        if (from.isBefore(earliest)) {
            from = earliest;
        }
        return new Range(from.isBefore(settings.registeredAt()) ? settings.registeredAt() : from, until);
    }

    /** Whether the range holds no ended period. */
    static boolean empty(Range range) {
        return !range.until().isAfter(range.from());
    }

    /** Today's periods beside the proposal's, matched by period id, newest last. */
    static List<PortalModel.ComparedPeriod> compare(List<WhatIfService.WhatIfPeriod> today,
            List<WhatIfService.WhatIfPeriod> proposed) {
        Map<String, WhatIfService.WhatIfPeriod> byPeriod = proposed.stream()
                .collect(Collectors.toMap(p -> p.statement().period(), Function.identity(), (a, b) -> b));
        List<PortalModel.ComparedPeriod> out = new ArrayList<>();
        for (WhatIfService.WhatIfPeriod now : today) {
            WhatIfService.WhatIfPeriod then = byPeriod.get(now.statement().period());
            if (then == null) {
                continue;
            }
            Map<String, StatementView.Line> thenLines = then.statement().lines().stream()
                    .collect(Collectors.toMap(StatementView.Line::tenant, Function.identity(), (a, b) -> b));
            List<PortalModel.ComparedLine> lines = new ArrayList<>();
            for (StatementView.Line line : now.statement().lines()) {
                StatementView.Line other = thenLines.get(line.tenant());
                if (other != null) {
                    lines.add(new PortalModel.ComparedLine(line.tenant(),
                            PortalModel.Compared.of(line.entitled(), other.entitled()),
                            PortalModel.Compared.of(line.rho(), other.rho()),
                            PortalModel.Compared.of(line.balance(), other.balance()),
                            PortalModel.Compared.money(line.total(), other.total(),
                                    now.statement().currency())));
                }
            }
            out.add(new PortalModel.ComparedPeriod(now.statement().period(), now.statement().start(),
                    now.statement().end(), PortalModel.Compared.of(now.sharingBenefit(), then.sharingBenefit()),
                    PortalModel.Compared.of(now.sharingLoss(), then.sharingLoss()),
                    PortalModel.Compared.of(now.jainFairness(), then.jainFairness()),
                    PortalModel.Compared.money(total(now), total(then), now.statement().currency()), lines));
        }
        return out;
    }

    private static BigDecimal total(WhatIfService.WhatIfPeriod p) {
        return p.statement().totalCharge();
    }
}

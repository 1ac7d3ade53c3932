package io.fairledger.portal;

import java.util.List;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import io.fairledger.accounting.StatementView;
import io.fairledger.live.LiveViewsModel;

/** The portal's pages, {@code src/main/resources/templates/portal/*.html}, checked against these types at build. */
@CheckedTemplate(basePath = "portal")
final class PortalTemplates {

    private PortalTemplates() {
    }

    static native TemplateInstance home(Viewer viewer, List<PortalModel.ClusterEntry> clusters);

    static native TemplateInstance tenant(Viewer viewer, LiveViewsModel.TenantView tenant,
            LiveViewsModel.FairnessView cluster, PortalModel.GrantWords grant, List<PortalModel.PeriodRow> periods,
            List<StatementView> statements, List<PortalModel.JobRow> jobs, String jobsNote, String chartJson,
            String currency, List<PortalModel.Relative> family);

    static native TemplateInstance admin(Viewer viewer, List<PortalModel.ClusterEntry> clusters,
            List<AuditChanges.Row> audit);

    static native TemplateInstance cluster(Viewer viewer, String cluster, List<PortalModel.TenantRow> tenants,
            String policy, String notice, PortalModel.Books books, String booksNote, String version);

    static native TemplateInstance preview(Viewer viewer, String cluster, PortalModel.TenantRow proposed,
            PortalModel.TenantRow current, List<PortalModel.ComparedPeriod> periods, String version);

    static native TemplateInstance error(int status, String title, String detail);

    static native TemplateInstance signedOut();
}

// The in-memory shapes the projector loads from Redis and the pure render functions consume.
// Times are epoch milliseconds (UTC).
import type { CheckStatus } from '../src/events/check.ts';
import type { IncidentState } from '../src/events/incident.ts';
import type { Impact } from '../src/events/monitor.ts';
import type { Locale } from './locale/locales.ts';
import type { Plan } from '../src/events/page.ts';

export type { CheckStatus, Impact, IncidentState, Plan };

/** A failure: a maximal run of down checks, [start, end). */
export type Interval = Readonly<{ start: number; end: number }>;

/** One UTC day of a monitor's closed failures: down ms inside the day, failures starting in it, the earliest start. */
export type DaySummary = Readonly<{ ms: number; starts: number; firstStart: number }>;

/**
 * What stands in for the failures not loaded: per-day summaries (key: the day's start ms), and the
 * ranges [from, to) for which `down` holds every failure overlapping them. A full UTC day outside
 * those ranges is answered from its summary; any other part must lie inside one of them.
 */
export type DownSummary = Readonly<{
  days: ReadonlyMap<number, DaySummary>;
  exact: readonly (readonly [from: number, to: number])[];
}>;

export type MinuteBucket = Readonly<{ n: number; rt: number; d: number; g: number }>; // count, Σ ms, downs, degraded
export type HourBucket = Readonly<{ n: number; rt: number }>;

export type MonitorConfig = Readonly<{
  id: number;
  name: string;
  type: string;
  impact: Impact;
  position: number | null;
  /** The monitor's own SLA target (percent), overriding the page's; absent: the page's. */
  slaTarget?: number | undefined;
}>;

/** What the status outputs need of a monitor: its config and timeline head. */
export type MonitorStatus = MonitorConfig &
  Readonly<{
    firstAt: number | null; // earliest check ever seen; null: no data yet
    lastStatus: CheckStatus | null; // status of the latest check by `at`
    openDownStart: number | null; // start of the failure still open at the latest check
  }>;

export type MonitorSnapshot = MonitorStatus &
  Readonly<{
    down: readonly Interval[]; // closed failures (ascending): all of them, or those of `summary.exact`
    /** Absent: `down` holds every failure of the last 366 days. */
    summary?: DownSummary;
    hours: ReadonlyMap<number, HourBucket>; // hour start ms → bucket, for today and yesterday
    minutes: ReadonlyMap<number, MinuteBucket>; // minute start ms → bucket, for the last 240 minutes
  }>;

export type IncidentUpdate = Readonly<{ status: IncidentState; message: string; createdAt: number }>;
export type IncidentDoc = Readonly<{
  id: string;
  title: string;
  state: IncidentState;
  startedAt: number;
  resolvedAt: number | null;
  components: readonly string[];
  updates: readonly IncidentUpdate[];
}>;

export type MaintenanceDoc = Readonly<{
  id: string;
  title: string;
  description: string;
  scheduledStart: number;
  scheduledEnd: number;
  components: readonly string[];
  createdAt: number;
  /** `at` of the maintenance's latest event (absent in documents projected before it was kept). */
  updatedAt?: number;
  /** Explicit transitions; otherwise the status follows the clock. */
  started: boolean;
  completed: boolean;
  cancelled: boolean;
  /** `at` of the first explicit transition of each kind (SLA reports: the in-progress interval). */
  startedAt?: number | undefined;
  completedAt?: number | undefined;
  cancelledAt?: number | undefined;
}>;

export type MaintenanceStatus = 'scheduled' | 'in_progress' | 'completed' | 'cancelled';

export type PageSettings = Readonly<{
  slug: string;
  title: string;
  plan: Plan;
  customDomain: string | null;
  tokenHash: string | null;
  blocked: boolean;
  /** When the page was last configured; null in documents stored before it was kept. */
  configuredAt: number | null;
  /** SLA reports (sla-reports.md): the page's IANA zone, target (percent), maintenance left out. Absent: UTC, 99.9, true. */
  timeZone?: string | undefined;
  slaTarget?: number | undefined;
  slaExcludeMaintenance?: boolean | undefined;
  /** The language of the page's status page, reports, badge and embeds; absent: en. */
  locale?: Locale | undefined;
}>;

/** The per-page document the projector keeps (`pg:<slug>:state`). */
export type PageState = Readonly<{
  settings: PageSettings;
  deleted: boolean;
  updatedAt: number | null; // largest `at` of the page's events projected so far (stored apart: pg:<slug>:updated)
  monitors: Readonly<Record<string, MonitorConfig>>;
  incidents: Readonly<Record<string, IncidentDoc>>;
  maintenances: Readonly<Record<string, MaintenanceDoc>>;
}>;

export type { OverallStatus } from '../src/shared/overallStatus.ts';

export type Period = '24h' | '7d' | '30d' | '90d' | '1y';

/** Where URLs in rendered outputs point. */
export type UrlSettings = Readonly<{ baseUrl: string; pageUrlTemplate: string }>;

/** An event that could not be applied: skipped, and recorded in `dead_letters` with its error. */
export type DeadLetter = Readonly<{ position: string; error: string }>;

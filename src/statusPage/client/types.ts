// The shapes of the public API answers this page reads (docs/api.md), as far as it uses them.
export type Overall =
  'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance';
export type MonitorState = 'up' | 'down' | 'degraded';

export type HourPoint = Readonly<{ hour: number; avg_response: number; uptime: number }>;
export type MinutePoint = Readonly<{ minute: string; response_time: number; status: string }>;

export type ChartMonitor = Readonly<{
  id: number;
  name: string;
  state: MonitorState;
  avg_response_time_today: number;
  hourly_data: readonly HourPoint[];
  yesterday_hourly_data: readonly HourPoint[];
  minute_data: readonly MinutePoint[];
}>;

export type Charts = Readonly<{
  monitors: readonly ChartMonitor[];
  overall: Overall;
  globalDaily: readonly Readonly<{ date: string; uptime: number }>[];
  timestamp: number;
}>;

export type MinuteData = Readonly<{
  monitors: readonly Readonly<{ id: number; minute_data: readonly MinutePoint[] }>[];
}>;

export type DayFigure = Readonly<{ date: string; uptime_percentage: number; downtime_seconds: number }>;

export type Availability = Readonly<{
  monitor_id: number;
  monitor_name: string;
  period: string;
  availability: Readonly<{
    uptime_percentage: number;
    downtime_seconds: number;
    total_seconds: number;
    mtbf_seconds: number;
    mttr_seconds: number;
    incident_count: number;
  }>;
  daily_breakdown: readonly DayFigure[];
}>;

export type IncidentUpdate = Readonly<{ status: string; message: string; created_at: string }>;
export type Incident = Readonly<{
  id: string;
  title: string;
  state: string;
  started_at: string;
  resolved_at?: string;
  components: readonly string[];
  updates: readonly IncidentUpdate[];
}>;

export type Maintenance = Readonly<{
  id: string;
  title: string;
  description: string;
  status: string;
  scheduled_start: string;
  scheduled_end: string;
  components: readonly string[];
  created_at: string;
}>;

export type Paged = Readonly<{ page: number; page_size: number; total_pages: number; total_items: number }>;
export type IncidentList = Paged & Readonly<{ incidents: readonly Incident[] }>;
export type MaintenanceList = Paged & Readonly<{ maintenances: readonly Maintenance[] }>;
export type IncidentMonth = Readonly<{ incidents: readonly Incident[]; month: string; total_items: number }>;
export type DailyCounts = Readonly<{
  counts: Readonly<Record<string, number>>;
  start_date: string;
  end_date: string;
}>;

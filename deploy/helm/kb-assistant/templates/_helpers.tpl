{{/* Names and labels. */}}
{{- define "kb-assistant.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "kb-assistant.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The name of one component's objects: <fullname>-api, -worker, -cdn, -embedder. */}}
{{- define "kb-assistant.componentName" -}}
{{- printf "%s-%s" (include "kb-assistant.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "kb-assistant.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "kb-assistant.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "kb-assistant.selectorLabels" -}}
app.kubernetes.io/name: {{ include "kb-assistant.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "kb-assistant.componentLabels" -}}
{{ include "kb-assistant.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* The components the chart deploys, each a Deployment with its Service, HPA and PDB: the embedder only when enabled. */}}
{{- define "kb-assistant.components" -}}
api worker cdn{{ if .Values.embedder.enabled }} embedder{{ end }}
{{- end -}}

{{/*
The process a component runs (platform/config-variables.ts's roles): the embedder is the worker's
process with another WORKER_ROLE, so it is told, bounded and stopped as the worker is.
*/}}
{{- define "kb-assistant.process" -}}
{{- ternary "worker" .component (eq .component "embedder") -}}
{{- end -}}

{{- define "kb-assistant.secretName" -}}
{{- default (printf "%s-secrets" (include "kb-assistant.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{/*
How long Kubernetes waits between SIGTERM and SIGKILL, per component, from the configured grace: the
pause before the process hears of it (preStop), then the process's own deadline (api/shutdown.ts:
the grace plus 5 s to close its clients; worker/shutdown.ts: the grace plus 10 s for activities that
ignore their cancellation), plus 5 s to spare. deploy/helm/chart.test.ts checks these sums.
*/}}
{{- define "kb-assistant.terminationGracePeriodSeconds" -}}
{{- $shutdown := .root.Values.shutdown -}}
{{- $process := include "kb-assistant.process" . -}}
{{- if eq $process "api" -}}
{{- add $shutdown.preStopSeconds $shutdown.graceSeconds 5 5 -}}
{{- else if eq $process "worker" -}}
{{- add $shutdown.graceSeconds 10 5 -}}
{{- else -}}
{{- add $shutdown.preStopSeconds 5 -}}
{{- end -}}
{{- end -}}

{{/*
The variables the chart sets itself, from the values above `config` in values.yaml (WORKER_ROLE from
`embedder.enabled`): `config` and `embedder.config` may not set them.
*/}}
{{- define "kb-assistant.reservedVariables" -}}
NODE_ENV HOST PORT CDN_PORT HEALTH_PORT PUBLIC_BASE_URL TRUSTED_PROXY_HOPS TEMPORAL_ADDRESS TEMPORAL_NAMESPACE TEMPORAL_TASK_QUEUE WEAVIATE_URL WEAVIATE_GRPC_HOST WEAVIATE_GRPC_PORT REDIS_URL REDIS_PREFIX CONNECTORS_API_URL WORKER_ROLE SHUTDOWN_GRACE_SECONDS METRICS_ENABLED METRICS_HOST METRICS_PORT WORKER_METRICS_PORT TEMPORAL_METRICS_PORT OTEL_EXPORTER_OTLP_ENDPOINT ADMIN_TOKEN SECRETS_KEY SECRETS_PREVIOUS_KEYS WEAVIATE_API_KEY EMBEDDINGS_API_KEY ANSWERS_API_KEY
{{- end -}}

{{/* The secrets each process reads (platform/config-variables.ts, `secret: true`), and whether it cannot start without. */}}
{{- define "kb-assistant.secretEnv" -}}
{{- $secretName := include "kb-assistant.secretName" .root -}}
{{- $keys := dict
  "api" (list "ADMIN_TOKEN" "SECRETS_KEY" "REDIS_URL" "SECRETS_PREVIOUS_KEYS" "WEAVIATE_API_KEY" "EMBEDDINGS_API_KEY")
  "worker" (list "SECRETS_KEY" "REDIS_URL" "SECRETS_PREVIOUS_KEYS" "WEAVIATE_API_KEY" "EMBEDDINGS_API_KEY" "ANSWERS_API_KEY")
  "cdn" (list) -}}
{{- $required := list "ADMIN_TOKEN" "SECRETS_KEY" "REDIS_URL" -}}
{{- range (get $keys (include "kb-assistant.process" .)) }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ . }}
      optional: {{ not (has . $required) }}
{{- end }}
{{- end -}}

{{/* What every process is told, then the component's own variables and settings, then the extra ones. */}}
{{- define "kb-assistant.env" -}}
{{- $values := .root.Values -}}
{{- $process := include "kb-assistant.process" . -}}
- name: NODE_ENV
  value: production
- name: HOST
  value: 0.0.0.0
- name: PUBLIC_BASE_URL
  value: {{ required "publicBaseUrl is required" $values.publicBaseUrl | quote }}
{{- if ne $process "cdn" }}
- name: SHUTDOWN_GRACE_SECONDS
  value: {{ $values.shutdown.graceSeconds | quote }}
- name: TEMPORAL_ADDRESS
  value: {{ $values.temporal.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ $values.temporal.namespace | quote }}
- name: TEMPORAL_TASK_QUEUE
  value: {{ $values.temporal.taskQueue | quote }}
- name: WEAVIATE_URL
  value: {{ $values.weaviate.url | quote }}
{{- with $values.weaviate.grpcHost }}
- name: WEAVIATE_GRPC_HOST
  value: {{ . | quote }}
{{- end }}
- name: WEAVIATE_GRPC_PORT
  value: {{ $values.weaviate.grpcPort | quote }}
- name: REDIS_PREFIX
  value: {{ $values.redis.prefix | quote }}
# Metrics on a port of their own, reachable by Prometheus inside the cluster (docs/operations.md).
- name: METRICS_ENABLED
  value: {{ $values.metrics.enabled | quote }}
- name: METRICS_HOST
  value: 0.0.0.0
- name: METRICS_PORT
  value: {{ $values.metrics.apiPort | quote }}
- name: WORKER_METRICS_PORT
  value: {{ $values.metrics.workerPort | quote }}
- name: TEMPORAL_METRICS_PORT
  value: {{ $values.metrics.temporalPort | quote }}
{{- with $values.tracing.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- if eq $process "api" }}
- name: PORT
  value: {{ $values.api.port | quote }}
- name: TRUSTED_PROXY_HOPS
  value: {{ $values.api.trustedProxyHops | quote }}
{{- else if eq $process "worker" }}
- name: HEALTH_PORT
  value: {{ $values.worker.healthPort | quote }}
# The built-in connectors ingest through the API, inside the cluster.
- name: CONNECTORS_API_URL
  value: {{ printf "http://%s:%v" (include "kb-assistant.componentName" (dict "root" .root "component" "api")) $values.api.service.port | quote }}
# With an embedder Deployment, the workers run all but the items' activities and the embedders those
# alone (worker/task-queues.ts); without, every worker runs everything.
- name: WORKER_ROLE
  value: {{ if not $values.embedder.enabled }}all{{ else if eq .component "embedder" }}embedder{{ else }}core{{ end }}
{{- else }}
- name: CDN_PORT
  value: {{ $values.cdn.port | quote }}
{{- end }}
{{- include "kb-assistant.secretEnv" . }}
{{- /* The component's own settings, over `config` (a container's env wins over its envFrom). */}}
{{- range $name, $value := (get $values .component).config | default dict }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- with (get $values .component).extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* A soft rule spreading a component's replicas over nodes. */}}
{{- define "kb-assistant.topologySpread" -}}
- maxSkew: 1
  topologyKey: kubernetes.io/hostname
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels:
      {{- include "kb-assistant.selectorLabels" . | nindent 6 }}
{{- end -}}

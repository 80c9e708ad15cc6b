{{/* The chart's name, at most 63 characters. */}}
{{- define "runnel.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The release's full name: <release>-<chart>, or the release alone when it already contains the chart's name. */}}
{{- define "runnel.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels on every object. */}}
{{- define "runnel.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "runnel.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one role: pass (dict "ctx" $ "role" "sync"). */}}
{{- define "runnel.selector" -}}
app.kubernetes.io/name: {{ include "runnel.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{/* The Secret the pods read DATABASE_URL, NATS_URL and the secrets from. */}}
{{- define "runnel.secretName" -}}
{{- default (include "runnel.fullname" .) .Values.existingSecret -}}
{{- end -}}

{{/* The image reference. */}}
{{- define "runnel.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* The sync pods' grace period: preStop sleep + drain spread (whole seconds, rounded up) + margin. */}}
{{- define "runnel.sync.grace" -}}
{{- $d := .Values.sync.drain -}}
{{- add (int $d.preStopSleepSeconds) (div (add (int64 $d.spreadMs) 999) 1000) (int $d.extraGraceSeconds) -}}
{{- end -}}

{{/* One environment variable from the Secret: pass (dict "ctx" $ "name" "DATABASE_URL" "optional" false). */}}
{{- define "runnel.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "runnel.secretName" .ctx }}
      key: {{ .name }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end -}}

{{/* The container's command: java, the JVM options, the jar. */}}
{{- define "runnel.command" -}}
command:
  - java
  {{- range .Values.javaOptions }}
  - {{ . | quote }}
  {{- end }}
  - "-jar"
  - /app/runnel-example-app.jar
{{- end -}}

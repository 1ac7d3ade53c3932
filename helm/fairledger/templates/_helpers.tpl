{{/* Chart name, truncated to the 63 characters of a DNS label. */}}
{{- define "fairledger.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: <release>-fairledger, or the release name when it already contains the chart name. */}}
{{- define "fairledger.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "fairledger.selectorLabels" -}}
app.kubernetes.io/name: {{ include "fairledger.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "fairledger.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "fairledger.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: fairledger
{{- end }}

{{/* The environment variable of a Kafka client property: security.protocol -> KAFKA_SECURITY_PROTOCOL. */}}
{{- define "fairledger.kafkaEnv" -}}
{{- printf "KAFKA_%s" (regexReplaceAll "[^A-Za-z0-9]" . "_" | upper) }}
{{- end }}

{{- define "fairledger.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "fairledger.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Labels of the `helm test` pod, which the NetworkPolicy lets reach the management port. */}}
{{- define "fairledger.testLabels" -}}
app.kubernetes.io/component: helm-test
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The JVM's options, as the image sets them (pom.xml, profile image) with the heap share and javaOptions applied:
     G1 unless javaOptions picks a collector (two collectors stop the JVM); javaOptions last, so they win. */}}
{{- define "fairledger.javaToolOptions" -}}
{{- $options := list (printf "-XX:MaxRAMPercentage=%v" .Values.javaHeapPercentage) }}
{{- if not (regexMatch "(^|\\s)-XX:\\+Use[A-Za-z]+GC" .Values.javaOptions) }}
{{- $options = append $options "-XX:+UseG1GC" }}
{{- end }}
{{- $options = append $options "-XX:+ExitOnOutOfMemoryError" }}
{{- with .Values.javaOptions }}
{{- $options = append $options . }}
{{- end }}
{{- join " " $options }}
{{- end }}

{{/* The TCP ports of the server's dependencies, as a JSON list without repeats, for the NetworkPolicy's egress: each
     host of postgresql.jdbcUrl (5432 when it names none), each of kafka.bootstrapServers (9092 when none), and
     oidc.authServerUrl's (443 for https, else 80, when none). */}}
{{- define "fairledger.dependencyPorts" -}}
{{- $ports := list }}
{{- $jdbcHosts := regexReplaceAll "^jdbc:postgresql://([^/?]*).*$" .Values.postgresql.jdbcUrl "${1}" }}
{{- range splitList "," $jdbcHosts }}
{{- $ports = append $ports (regexFind ":[0-9]+$" (trim .) | trimPrefix ":" | default "5432") }}
{{- end }}
{{- range splitList "," .Values.kafka.bootstrapServers }}
{{- $ports = append $ports (regexFind ":[0-9]+$" (trim .) | trimPrefix ":" | default "9092") }}
{{- end }}
{{- $oidc := urlParse .Values.oidc.authServerUrl }}
{{- $ports = append $ports (regexFind ":[0-9]+$" $oidc.host | trimPrefix ":" | default (ternary "443" "80" (eq $oidc.scheme "https"))) }}
{{- $ports | uniq | toJson }}
{{- end }}

{{- /* Reduced from kubeovn/kube-ovn charts/kube-ovn-v2/templates/monitor/prometheus-rules.yaml:
the chart's own groups left out, the insertion of prometheusRule.additionalGroups kept. */ -}}
{{- if .Values.prometheusRule.enabled }}
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: kube-ovn
  namespace: {{ default .Values.namespace .Values.prometheusRule.namespace }}
  labels:
    app.kubernetes.io/name: kube-ovn
    app.kubernetes.io/part-of: kube-ovn
spec:
  groups:
    - name: kube-ovn.controller
      rules:
        - alert: KubeOvnControllerDown
          expr: up{job="kube-ovn-controller"} == 0
          for: 5m
          labels:
            severity: critical
          annotations:
            summary: 'kube-ovn-controller {{`{{ $labels.instance }}`}} is down'
    {{- with .Values.prometheusRule.additionalGroups }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- end }}

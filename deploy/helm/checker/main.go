// Command checker strictly decodes Kubernetes manifests (the output of `helm template`) into their
// k8s.io/api types, offline: an apiVersion/kind the pinned Kubernetes version does not serve, an
// unknown or misspelt field, a duplicate field or a value of the wrong type fails the check.
//
// Usage: checker [file ...]   (standard input when no file is named)
//
// Each problem is printed as `<source> (<kind> <name>): <error>`, where <source> is the template
// named by helm's `# Source:` comment (else the file and document number); the exit status is 1
// when any manifest was refused, 2 when the input could not be read.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// The generally available API groups a cluster of the pinned version serves. Beta and removed
// versions (policy/v1beta1, autoscaling/v2beta2, …) are deliberately absent: they are refused.
var groups = []func(*runtime.Scheme) error{
	corev1.AddToScheme,
	appsv1.AddToScheme,
	autoscalingv1.AddToScheme,
	autoscalingv2.AddToScheme,
	batchv1.AddToScheme,
	coordinationv1.AddToScheme,
	discoveryv1.AddToScheme,
	networkingv1.AddToScheme,
	policyv1.AddToScheme,
	rbacv1.AddToScheme,
	schedulingv1.AddToScheme,
	storagev1.AddToScheme,
}

var sourceComment = regexp.MustCompile(`(?m)^# Source: (.+)$`)

func main() {
	decoder, err := strictDecoder()
	if err != nil {
		fmt.Fprintln(os.Stderr, "checker:", err)
		os.Exit(2)
	}
	inputs := os.Args[1:]
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}

	checked, refused := 0, 0
	for _, input := range inputs {
		documents, err := readDocuments(input)
		if err != nil {
			fmt.Fprintln(os.Stderr, "checker:", err)
			os.Exit(2)
		}
		for i, document := range documents {
			if isEmpty(document) {
				continue
			}
			checked++
			source := fmt.Sprintf("%s, document %d", displayName(input), i+1)
			if match := sourceComment.FindSubmatch(document); match != nil {
				source = string(match[1])
			}
			if problem := check(decoder, document); problem != "" {
				refused++
				fmt.Fprintf(os.Stdout, "%s %s\n", source, problem)
			}
		}
	}
	if refused > 0 {
		fmt.Fprintf(os.Stdout, "%d of %d manifests refused\n", refused, checked)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stdout, "%d manifests decoded strictly\n", checked)
}

func strictDecoder() (runtime.Decoder, error) {
	scheme := runtime.NewScheme()
	for _, add := range groups {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer(), nil
}

// check decodes one document; it answers "" when the document is a known kind with only known
// fields, else what is wrong, prefixed with the object's kind and name as far as they can be read.
func check(decoder runtime.Decoder, document []byte) string {
	var identity metav1.PartialObjectMetadata
	_ = yaml.Unmarshal(document, &identity)
	what := fmt.Sprintf("(%s %s)", orUnknown(identity.APIVersion+" "+identity.Kind), orUnknown(identity.Name))

	object, kind, err := decoder.Decode(document, nil, nil)
	if err != nil {
		return fmt.Sprintf("%s: %s", what, err)
	}
	if _, unknown := object.(*runtime.Unknown); unknown {
		return fmt.Sprintf("%s: no k8s.io/api type for %s", what, kind)
	}
	if identity.Name == "" {
		return fmt.Sprintf("%s: metadata.name is missing", what)
	}
	return ""
}

func orUnknown(text string) string {
	if strings.TrimSpace(text) == "" {
		return "?"
	}
	return strings.TrimSpace(text)
}

func readDocuments(input string) ([][]byte, error) {
	var source io.Reader = os.Stdin
	if input != "-" {
		file, err := os.Open(input)
		if err != nil {
			return nil, err
		}
		defer file.Close()
		source = file
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(source))
	var documents [][]byte
	for {
		document, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return documents, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", displayName(input), err)
		}
		documents = append(documents, bytes.Clone(document))
	}
}

// isEmpty is true for a document of comments and blank lines only (a template that rendered nothing).
func isEmpty(document []byte) bool {
	for _, line := range strings.Split(string(document), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed != "" && trimmed != "---" && !strings.HasPrefix(trimmed, "#") {
			return false
		}
	}
	return true
}

func displayName(input string) string {
	if input == "-" {
		return "standard input"
	}
	return input
}

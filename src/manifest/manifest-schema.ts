/**
 * The JSON Schema (2020-12) of spec v0.3. This object is the source of truth; `npm run build` writes it
 * to `schema/ai-capabilities-0.3.schema.json`, and a test fails when the committed file drifts. The
 * v0.1 and v0.2 files stay published unchanged: every v0.1 or v0.2 document is also a v0.3 document.
 */
export const manifestSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aicap.dev/schema/ai-capabilities-0.3.schema.json',
  title: 'AI capabilities manifest, spec v0.3',
  description:
    'The document served at /.well-known/ai-capabilities with media type application/ai-capabilities+json. Unknown members are allowed and ignored by clients; extensions should start with x-.',
  type: 'object',
  required: ['schema_version', 'service', 'tools'],
  properties: {
    schema_version: {
      description: 'Semantic version of the spec the document follows.',
      type: 'string',
      pattern: '^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$',
    },
    service: {
      $ref: '#/$defs/service',
    },
    consumer_requirements: {
      $ref: '#/$defs/consumer_requirements',
    },
    tools: {
      type: 'array',
      maxItems: 2000,
      items: {
        $ref: '#/$defs/tool',
      },
    },
    resources: {
      type: 'array',
      maxItems: 2000,
      items: {
        $ref: '#/$defs/resource',
      },
    },
    prompts: {
      type: 'array',
      maxItems: 2000,
      items: {
        $ref: '#/$defs/prompt',
      },
    },
    auth: {
      $ref: '#/$defs/auth',
    },
    policy: {
      $ref: '#/$defs/policy',
    },
    versioning: {
      $ref: '#/$defs/versioning',
    },
    change_feed: {
      $ref: '#/$defs/change_feed',
    },
    definitions: {
      description: 'Shared JSON Schemas by name (spec v0.2). An embedded schema refers to one with {"$ref": "#/definitions/<name>"}.',
      type: 'object',
      maxProperties: 20000,
      propertyNames: {
        type: 'string',
        pattern: '^[A-Za-z0-9._-]{1,128}$',
      },
      additionalProperties: {
        $ref: '#/$defs/json_schema',
      },
    },
  },
  $defs: {
    id: {
      description: 'Identifier of a tool, resource or prompt.',
      type: 'string',
      pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$',
    },
    text: {
      type: 'string',
      maxLength: 8192,
    },
    url: {
      type: 'string',
      maxLength: 2048,
      format: 'uri',
      allOf: [
        {
          description: 'An absolute http or https URL (validator code url.invalid).',
          type: 'string',
          pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
        },
        {
          description: 'No user name or password in the authority (validator code url.invalid).',
          type: 'string',
          pattern: '^[^:/?#]+://[^/?#@]*(?:[/?#]|$)',
        },
      ],
    },
    origin: {
      description: 'An http(s) origin: scheme, host and optional port, nothing else.',
      type: 'string',
      maxLength: 2048,
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@\\s]+$',
    },
    semver: {
      type: 'string',
      maxLength: 64,
      pattern: '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?$',
    },
    path: {
      description: 'Path relative to service.base_url, starting with /, with {name} placeholders.',
      type: 'string',
      maxLength: 2048,
      pattern: '^/',
      not: {
        description: 'A . or .. segment, also percent-encoded, would resolve outside service.base_url (validator code path.dot_segment).',
        type: 'string',
        pattern: '(?:^|/)(?:\\.|%2[Ee]){1,2}(?:/|$|\\?|#)',
      },
    },
    simple_type: {
      enum: ['string', 'number', 'integer', 'boolean', 'object', 'array'],
    },
    json_schema: {
      description: 'An embedded JSON Schema (2020-12). Checked separately for hostile constructs.',
      type: ['object', 'boolean'],
    },
    service: {
      type: 'object',
      required: ['name', 'base_url'],
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
        },
        description: {
          $ref: '#/$defs/text',
        },
        base_url: {
          $ref: '#/$defs/url',
          allOf: [
            {
              description: 'https, or http on a loopback host: localhost, *.localhost, 127.0.0.0/8, [::1] (validator code service.base_url_insecure).',
              type: 'string',
              pattern:
                '^(?:[Hh][Tt][Tt][Pp][Ss]://|[Hh][Tt][Tt][Pp]://(?:[^/?#@]*@)?(?:(?:[^/?#@:]*\\.)?[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]\\.?|127\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}|\\[::1\\])(?::[0-9]*)?(?:[/?#]|$))',
            },
            {
              description: 'No query or fragment: tool paths are appended to it (validator code service.base_url_invalid).',
              type: 'string',
              pattern: '^[^?#]*$',
            },
          ],
        },
        documentation_url: {
          $ref: '#/$defs/url',
        },
        contact: {
          type: 'string',
          maxLength: 512,
        },
        health: {
          $ref: '#/$defs/url',
        },
      },
    },
    consumer_requirements: {
      type: 'object',
      properties: {
        content_types: {
          type: 'array',
          maxItems: 50,
          items: {
            type: 'string',
            maxLength: 255,
          },
        },
        streaming_responses: {
          type: 'boolean',
        },
      },
    },
    intent: {
      type: 'object',
      required: ['when'],
      properties: {
        when: {
          $ref: '#/$defs/text',
        },
        prerequisites: {
          $ref: '#/$defs/text',
        },
        avoid_when: {
          $ref: '#/$defs/text',
        },
      },
    },
    parameter: {
      type: 'object',
      required: ['type'],
      properties: {
        type: {
          $ref: '#/$defs/simple_type',
        },
        required: {
          type: 'boolean',
        },
        description: {
          $ref: '#/$defs/text',
        },
        in: {
          enum: ['path', 'query', 'header', 'cookie', 'body'],
        },
        enum: {
          type: 'array',
          maxItems: 1000,
        },
        default: true,
        example: true,
        json_schema: {
          $ref: '#/$defs/json_schema',
        },
        style: {
          description: "How an array or object value is serialised (spec v0.3): OpenAPI's styles, with its defaults (simple in the path and headers, form elsewhere).",
          enum: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject', 'simple', 'label', 'matrix'],
        },
        explode: {
          description: 'Arrays and objects become one pair per item or member (spec v0.3). Default: true for form, false otherwise.',
          type: 'boolean',
        },
        allow_reserved: {
          description: 'Query and form values keep RFC 3986 reserved characters unencoded (spec v0.3).',
          type: 'boolean',
        },
        allow_empty_value: {
          description: 'A required query or header parameter may be sent empty (spec v0.3).',
          type: 'boolean',
        },
        content_type: {
          description: "Media type of this body parameter's multipart part, or application/json for a form field sent as JSON text (spec v0.3).",
          type: 'string',
          minLength: 1,
          maxLength: 255,
        },
        resolved_by: {
          description: "Id of the tool whose result supplies this parameter's value (spec v0.3, section 7.20).",
          $ref: '#/$defs/id',
        },
      },
    },
    parameters: {
      type: 'object',
      maxProperties: 500,
      propertyNames: {
        type: 'string',
        minLength: 1,
        maxLength: 256,
      },
      additionalProperties: {
        $ref: '#/$defs/parameter',
      },
      patternProperties: {
        '^(?:[Hh][Oo][Ss][Tt]|[Cc][Oo][Nn][Nn][Ee][Cc][Tt][Ii][Oo][Nn]|[Cc][Oo][Nn][Tt][Ee][Nn][Tt]-[Ll][Ee][Nn][Gg][Tt][Hh]|[Tt][Rr][Aa][Nn][Ss][Ff][Ee][Rr]-[Ee][Nn][Cc][Oo][Dd][Ii][Nn][Gg]|[Uu][Pp][Gg][Rr][Aa][Dd][Ee]|[Tt][Ee]|[Tt][Rr][Aa][Ii][Ll][Ee][Rr]|[Kk][Ee][Ee][Pp]-[Aa][Ll][Ii][Vv][Ee]|[Ee][Xx][Pp][Ee][Cc][Tt]|[Cc][Oo][Oo][Kk][Ii][Ee]|[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]|[Pp][Rr][Oo][Xx][Yy]-.*)$':
          {
            description: 'Host, the framing and hop-by-hop headers, Expect, Proxy-*, Cookie and Authorization cannot be header parameters (validator code parameter.forbidden_header).',
            $ref: '#/$defs/parameter',
            not: {
              type: 'object',
              required: ['in'],
              properties: {
                in: {
                  const: 'header',
                },
              },
            },
          },
      },
    },
    pagination: {
      type: 'object',
      required: ['style'],
      properties: {
        style: {
          enum: ['cursor', 'page', 'offset', 'link'],
        },
        parameter: {
          type: 'string',
          maxLength: 256,
        },
        limit_parameter: {
          type: 'string',
          maxLength: 256,
        },
        next_field: {
          type: 'string',
          maxLength: 256,
        },
        cursor_item_field: {
          type: 'string',
          maxLength: 256,
        },
        items_field: {
          type: 'string',
          maxLength: 256,
        },
        has_more_field: {
          type: 'string',
          maxLength: 256,
        },
        total_field: {
          type: 'string',
          maxLength: 256,
        },
      },
    },
    returns: {
      type: 'object',
      properties: {
        type: {
          $ref: '#/$defs/simple_type',
        },
        description: {
          $ref: '#/$defs/text',
        },
        item_schema: {
          anyOf: [
            {
              $ref: '#/$defs/json_schema',
            },
            {
              type: 'object',
              additionalProperties: {
                type: 'string',
              },
            },
          ],
        },
        schema: {
          $ref: '#/$defs/json_schema',
        },
        typical_size: {
          enum: ['small', 'medium', 'large'],
        },
        max_items: {
          type: 'integer',
          minimum: 0,
        },
        content_type: {
          type: 'string',
          maxLength: 255,
        },
        redirect_statuses: {
          description: '3xx statuses the operation answers with on success (spec v0.3); the client returns them with their Location instead of following them.',
          type: 'array',
          maxItems: 10,
          items: {
            type: 'integer',
            minimum: 300,
            maximum: 399,
          },
        },
        pagination: {
          $ref: '#/$defs/pagination',
        },
      },
    },
    error_contract: {
      type: 'object',
      required: ['status'],
      properties: {
        status: {
          type: 'integer',
          minimum: 400,
          maximum: 599,
        },
        type: {
          type: 'string',
          maxLength: 2048,
        },
        retry_strategy: {
          enum: ['none', 'immediate', 'fixed_delay', 'exponential_backoff'],
        },
        max_retries: {
          type: 'integer',
          minimum: 0,
          maximum: 100,
        },
        context: {
          $ref: '#/$defs/text',
        },
      },
    },
    deprecation: {
      type: 'object',
      properties: {
        replaced_by: {
          $ref: '#/$defs/id',
        },
        sunset: {
          type: 'string',
          maxLength: 64,
        },
        message: {
          $ref: '#/$defs/text',
        },
      },
    },
    reconnection: {
      type: 'object',
      properties: {
        supports_last_event_id: {
          type: 'boolean',
        },
        missed_events_recoverable: {
          type: 'boolean',
        },
        fallback_poll_interval_seconds: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 86400,
        },
      },
    },
    temporal_behavior: {
      type: 'object',
      required: ['pattern', 'status_endpoint', 'status_response_type', 'terminal_states'],
      properties: {
        pattern: {
          const: 'async_job',
        },
        status_endpoint: {
          $ref: '#/$defs/path',
        },
        status_response_type: {
          enum: ['event_stream', 'json'],
        },
        terminal_states: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          items: {
            type: 'string',
            minLength: 1,
            maxLength: 64,
          },
        },
        signals: {
          type: 'array',
          maxItems: 50,
          items: {
            type: 'string',
            minLength: 1,
            maxLength: 64,
          },
        },
        result_endpoint: {
          $ref: '#/$defs/path',
        },
        cancel_endpoint: {
          $ref: '#/$defs/path',
        },
        job_id_field: {
          type: 'string',
          minLength: 1,
          maxLength: 256,
        },
        reconnection: {
          $ref: '#/$defs/reconnection',
        },
      },
    },
    event_schema: {
      type: 'object',
      properties: {
        description: {
          $ref: '#/$defs/text',
        },
        fields: {
          type: 'object',
          maxProperties: 200,
          additionalProperties: {
            anyOf: [
              {
                $ref: '#/$defs/simple_type',
              },
              {
                $ref: '#/$defs/json_schema',
              },
            ],
          },
        },
        resolution_endpoint: {
          $ref: '#/$defs/path',
        },
      },
    },
    tool: {
      type: 'object',
      required: ['id', 'path', 'method', 'description'],
      properties: {
        id: {
          $ref: '#/$defs/id',
        },
        path: {
          $ref: '#/$defs/path',
        },
        method: {
          enum: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        },
        description: {
          type: 'string',
          minLength: 1,
          maxLength: 8192,
        },
        intent: {
          $ref: '#/$defs/intent',
        },
        parameters: {
          $ref: '#/$defs/parameters',
        },
        request_content_type: {
          enum: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
        },
        body_required: {
          description: 'Body parameters required whenever any body parameter is sent (spec v0.3).',
          type: 'array',
          maxItems: 500,
          items: {
            type: 'string',
            minLength: 1,
            maxLength: 256,
          },
        },
        body_parameter: {
          type: 'string',
          minLength: 1,
          maxLength: 256,
        },
        returns: {
          $ref: '#/$defs/returns',
        },
        errors: {
          type: 'object',
          maxProperties: 200,
          propertyNames: {
            type: 'string',
            minLength: 1,
            maxLength: 128,
          },
          additionalProperties: {
            $ref: '#/$defs/error_contract',
          },
        },
        example_trigger: {
          anyOf: [
            {
              $ref: '#/$defs/text',
            },
            {
              type: 'array',
              maxItems: 50,
              items: {
                $ref: '#/$defs/text',
              },
            },
          ],
        },
        temporal_behavior: {
          $ref: '#/$defs/temporal_behavior',
        },
        event_schema: {
          type: 'object',
          maxProperties: 50,
          additionalProperties: {
            $ref: '#/$defs/event_schema',
          },
        },
        version: {
          $ref: '#/$defs/semver',
        },
        deprecated: {
          anyOf: [
            {
              type: 'boolean',
            },
            {
              $ref: '#/$defs/deprecation',
            },
          ],
        },
        idempotent: {
          type: 'boolean',
        },
        idempotency_key_header: {
          type: 'string',
          pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$",
        },
        ui_resource: {
          description: "(v0.3) Id of a resource of media type text/html;profile=mcp-app that renders this tool's results (MCP Apps).",
          $ref: '#/$defs/id',
        },
        links: {
          description: "Typed links from this tool's result or arguments to another tool's parameters (spec v0.3, section 7.20).",
          type: 'array',
          maxItems: 50,
          items: {
            $ref: '#/$defs/link',
          },
        },
      },
      if: {
        description: 'GET and HEAD have no request body (spec v0.3).',
        required: ['method'],
        properties: {
          method: {
            enum: ['GET', 'HEAD'],
          },
        },
      },
      then: {
        properties: {
          body_parameter: false,
        },
      },
    },
    resource: {
      type: 'object',
      required: ['id', 'path', 'description'],
      properties: {
        id: {
          $ref: '#/$defs/id',
        },
        path: {
          $ref: '#/$defs/path',
        },
        method: {
          const: 'GET',
        },
        description: {
          type: 'string',
          minLength: 1,
          maxLength: 8192,
        },
        intent: {
          $ref: '#/$defs/intent',
        },
        parameters: {
          $ref: '#/$defs/parameters',
        },
        returns: {
          $ref: '#/$defs/returns',
        },
        mime_type: {
          type: 'string',
          maxLength: 255,
        },
        ui: {
          description: '(v0.3) For a UI resource (mime_type text/html;profile=mcp-app, MCP Apps): the origins the page may connect to and load from. Absent lists allow nothing.',
          type: 'object',
          properties: {
            connect_domains: {
              type: 'array',
              maxItems: 20,
              items: {
                $ref: '#/$defs/origin',
              },
            },
            resource_domains: {
              type: 'array',
              maxItems: 20,
              items: {
                $ref: '#/$defs/origin',
              },
            },
            prefers_border: {
              type: 'boolean',
            },
          },
        },
        links: {
          description: "Typed links from this resource's content to a tool's parameters (spec v0.3, section 7.20).",
          type: 'array',
          maxItems: 50,
          items: {
            $ref: '#/$defs/link',
          },
        },
      },
    },
    prompt: {
      type: 'object',
      required: ['id', 'description', 'template'],
      properties: {
        id: {
          $ref: '#/$defs/id',
        },
        description: {
          type: 'string',
          minLength: 1,
          maxLength: 8192,
        },
        template: {
          type: 'string',
          minLength: 1,
          maxLength: 65536,
        },
        parameters: {
          $ref: '#/$defs/parameters',
        },
      },
    },
    auth: {
      type: 'object',
      required: ['type'],
      properties: {
        type: {
          enum: ['none', 'bearer', 'api_key', 'oauth2', 'basic'],
        },
        provider_discovery: {
          $ref: '#/$defs/url',
        },
        supported_methods: {
          type: 'array',
          maxItems: 20,
          items: {
            type: 'string',
            maxLength: 64,
          },
        },
        api_key: {
          type: 'object',
          required: ['in', 'name'],
          properties: {
            in: {
              enum: ['header', 'query', 'cookie'],
            },
            name: {
              type: 'string',
              minLength: 1,
              maxLength: 256,
            },
            prefix: {
              description: "Text sent before the key, such as 'Token token=' (spec v0.3).",
              type: 'string',
              maxLength: 64,
            },
          },
        },
        scopes: {
          type: 'object',
          maxProperties: 500,
          propertyNames: {
            type: 'string',
            minLength: 1,
            maxLength: 256,
          },
          additionalProperties: {
            type: 'array',
            maxItems: 2000,
            items: {
              $ref: '#/$defs/id',
            },
          },
        },
        agent_identification: {
          type: 'object',
          required: ['requires_agent_id'],
          properties: {
            requires_agent_id: {
              type: 'boolean',
            },
            id_header: {
              type: 'string',
              pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$",
            },
            description: {
              $ref: '#/$defs/text',
            },
          },
        },
      },
      if: {
        description: 'An api_key auth says where the key goes (spec v0.3).',
        required: ['type'],
        properties: {
          type: {
            const: 'api_key',
          },
        },
      },
      then: {
        required: ['api_key'],
        properties: {
          api_key: {
            type: 'object',
          },
        },
      },
    },
    policy: {
      type: 'object',
      properties: {
        human_approval_required: {
          type: 'array',
          maxItems: 2000,
          items: {
            $ref: '#/$defs/id',
          },
        },
        redact_from_logs: {
          type: 'array',
          maxItems: 500,
          items: {
            type: 'string',
            minLength: 1,
            maxLength: 256,
          },
        },
        max_actions_per_session: {
          type: 'integer',
          minimum: 0,
        },
        policy_url: {
          $ref: '#/$defs/url',
        },
      },
    },
    versioning: {
      type: 'object',
      required: ['current'],
      properties: {
        current: {
          $ref: '#/$defs/semver',
        },
        min_supported: {
          $ref: '#/$defs/semver',
        },
        changelog_url: {
          $ref: '#/$defs/url',
        },
      },
    },
    link: {
      type: 'object',
      required: ['tool', 'parameters'],
      properties: {
        tool: {
          $ref: '#/$defs/id',
        },
        parameters: {
          type: 'object',
          minProperties: 1,
          maxProperties: 50,
          propertyNames: {
            type: 'string',
            minLength: 1,
            maxLength: 256,
          },
          additionalProperties: {
            description: 'A link expression: $result, $item or $arguments, then # and a JSON Pointer.',
            type: 'string',
            maxLength: 1024,
            pattern: '^\\$(result|item|arguments)#(/([^~/]|~[01])*)*$',
          },
        },
        description: {
          $ref: '#/$defs/text',
        },
      },
    },
    change_feed: {
      description: 'A same-origin Server-Sent Events stream announcing the manifest digest each time the manifest changes (spec v0.3, section 7.22).',
      type: 'object',
      required: ['path'],
      properties: {
        path: {
          description: "Path of the feed on the manifest's own origin, starting with a single / (never another origin: no // or /\\ prefix, which URL parsers read as a host).",
          type: 'string',
          maxLength: 2048,
          pattern: '^/(?![/\\\\])',
        },
        heartbeat_interval_seconds: {
          description: 'Longest silence between two writes on the stream; a client that hears nothing for twice this long reconnects.',
          type: 'integer',
          minimum: 1,
          maximum: 3600,
        },
      },
    },
  },
} as const;

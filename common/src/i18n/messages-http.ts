/** The HTTP layer every service shares: routes, bodies, validation, upstreams, health. */
import type { Language } from './language';

export const httpMessages = {
  'route.notFound': { en: 'Route not found', fr: 'Route introuvable' },
  'request.malformed': { en: 'Malformed HTTP request', fr: 'Requête HTTP mal formée' },
  'request.timeout': {
    en: 'The request was not received in time',
    fr: "La requête n'a pas été reçue à temps",
  },
  'request.headersTooLarge': {
    en: 'Request headers are too large',
    fr: 'Les en-têtes de la requête sont trop volumineux',
  },
  'route.malformedPath': {
    en: 'The request path is not valid percent-encoded UTF-8',
    fr: "Le chemin de la requête n'est pas de l'UTF-8 correctement encodé en pourcentage",
  },
  'route.methodNotAllowed': {
    en: 'Method {method} is not allowed on this route',
    fr: "La méthode {method} n'est pas autorisée sur cette route",
  },
  'body.tooLarge': {
    en: 'Request body is larger than {limit}',
    fr: 'Le corps de la requête dépasse {limit}',
  },
  'body.unsupportedType': {
    en: 'Request body must be sent as {type}',
    fr: 'Le corps de la requête doit être envoyé en {type}',
  },
  'body.nulCharacter': {
    en: 'Request body must not contain the NUL character (\\u0000)',
    fr: 'Le corps de la requête ne doit pas contenir le caractère NUL (\\u0000)',
  },
  'body.invalidJson': {
    en: 'Request body is not valid JSON',
    fr: "Le corps de la requête n'est pas un JSON valide",
  },
  'body.empty': {
    en: 'Request body must contain at least one field',
    fr: 'Le corps de la requête doit contenir au moins un champ',
  },
  'validation.required': { en: '"{field}" is required', fr: '« {field} » est obligatoire' },
  'validation.unknownField': {
    en: '"{field}" is not an allowed field',
    fr: "« {field} » n'est pas un champ autorisé",
  },
  'validation.string': { en: '"{field}" must be a string', fr: '« {field} » doit être une chaîne' },
  'validation.stringEmpty': {
    en: '"{field}" must not be empty',
    fr: '« {field} » ne doit pas être vide',
  },
  'validation.stringMin': {
    en: '"{field}" must be at least {limit} characters long',
    fr: '« {field} » doit contenir au moins {limit} caractères',
  },
  'validation.stringMax': {
    en: '"{field}" must be at most {limit} characters long',
    fr: '« {field} » doit contenir au plus {limit} caractères',
  },
  'validation.pattern': {
    en: '"{field}" has an invalid format',
    fr: '« {field} » a un format invalide',
  },
  'validation.number': { en: '"{field}" must be a number', fr: '« {field} » doit être un nombre' },
  'validation.integer': {
    en: '"{field}" must be an integer',
    fr: '« {field} » doit être un entier',
  },
  'validation.numberMin': {
    en: '"{field}" must be greater than or equal to {limit}',
    fr: '« {field} » doit être supérieur ou égal à {limit}',
  },
  'validation.numberMax': {
    en: '"{field}" must be less than or equal to {limit}',
    fr: '« {field} » doit être inférieur ou égal à {limit}',
  },
  'validation.isoDate': {
    en: '"{field}" must be an ISO 8601 date and time, e.g. 2030-01-31T12:00:00Z',
    fr: '« {field} » doit être une date et une heure ISO 8601, par ex. 2030-01-31T12:00:00Z',
  },
  'validation.exclusive': {
    en: 'Give at most one of these fields: {values}',
    fr: 'Donnez au plus un de ces champs : {values}',
  },
  'validation.oneOf': {
    en: '"{field}" must be one of: {values}',
    fr: "« {field} » doit valoir l'une de ces valeurs : {values}",
  },
  'validation.array': { en: '"{field}" must be an array', fr: '« {field} » doit être un tableau' },
  'validation.arrayMax': {
    en: '"{field}" must contain at most {limit} items',
    fr: '« {field} » doit contenir au plus {limit} éléments',
  },
  'validation.object': {
    en: '"{field}" must be a JSON object',
    fr: '« {field} » doit être un objet JSON',
  },
  'validation.uuid': {
    en: '"{field}" must be a valid identifier',
    fr: '« {field} » doit être un identifiant valide',
  },
  'validation.email': {
    en: '"{field}" must be a valid email address',
    fr: '« {field} » doit être une adresse e-mail valide',
  },
  'validation.url': {
    en: '"{field}" must be an http or https URL',
    fr: '« {field} » doit être une URL http ou https',
  },
  'validation.invalid': { en: '"{field}" is invalid', fr: '« {field} » est invalide' },
  'validation.bidiControl': {
    en: '"{field}" must not contain bidirectional control characters',
    fr: '« {field} » ne doit pas contenir de caractères de contrôle bidirectionnel',
  },
  'validation.deepPage': {
    en: '"page" × "limit" must be at most {limit}',
    fr: '« page » × « limit » doit valoir au plus {limit}',
  },
  'validation.cursor': {
    en: '"{field}" must be a cursor this feed returned as nextCursor',
    fr: '« {field} » doit être un curseur renvoyé par ce flux dans nextCursor',
  },
  'upstream.unavailable': {
    en: 'The service is temporarily unavailable',
    fr: 'Le service est temporairement indisponible',
  },
  'upstream.timeout': {
    en: 'The service did not answer in time',
    fr: "Le service n'a pas répondu à temps",
  },
  'upstream.badGateway': {
    en: 'The service gave an invalid answer',
    fr: 'Le service a donné une réponse invalide',
  },
  'server.shuttingDown': {
    en: 'The server is shutting down',
    fr: "Le serveur est en cours d'arrêt",
  },
  'server.overloaded': {
    en: 'The server is busy; retry shortly',
    fr: 'Le serveur est surchargé ; réessayez dans un instant',
  },
  'server.internal': { en: 'Internal server error', fr: 'Erreur interne du serveur' },
  'health.notReady': {
    en: 'Not ready: {reason} not answering',
    fr: 'Pas prêt : {reason} ne répond pas',
  },
  'health.notReadyPublic': { en: 'Not ready', fr: 'Pas prêt' },
} satisfies Record<string, Record<Language, string>>;

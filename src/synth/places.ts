// Word lists for synthetic networks: real-looking cities and street names, accents included.

/** [contract name (URL-safe), display city, country, latitude, longitude] */
export const CITIES: readonly (readonly [string, string, string, number, number])[] = [
  ["lyon", "Lyon", "FR", 45.764, 4.8357],
  ["seville", "Sevilla", "ES", 37.3891, -5.9845],
  ["besancon", "Besançon", "FR", 47.238, 6.0244],
  ["creteil", "Créteil", "FR", 48.7904, 2.4556],
  ["dublin", "Dublin", "IE", 53.3498, -6.2603],
  ["ljubljana", "Ljubljana", "SI", 46.0569, 14.5058],
  ["goteborg", "Göteborg", "SE", 57.7089, 11.9746],
  ["lisboa", "Lisboa", "PT", 38.7223, -9.1393],
  ["bruxelles", "Bruxelles", "BE", 50.8503, 4.3517],
  ["wien", "Wien", "AT", 48.2082, 16.3738],
  ["nantes", "Nantes", "FR", 47.2184, -1.5536],
  ["malaga", "Málaga", "ES", 36.7213, -4.4214],
  ["koln", "Köln", "DE", 50.9375, 6.9603],
  ["vilnius", "Vilnius", "LT", 54.6872, 25.2797],
  ["toulouse", "Toulouse", "FR", 43.6047, 1.4442],
  ["plzen", "Plzeň", "CZ", 49.7384, 13.3736],
  ["cordoba", "Córdoba", "ES", 37.8882, -4.7794],
  ["namur", "Namur", "BE", 50.4674, 4.8718],
  ["orebro", "Örebro", "SE", 59.2753, 15.2134],
  ["saint-etienne", "Saint-Étienne", "FR", 45.4397, 4.3872],
];

export const STREET_KINDS = [
  "Rue",
  "Avenue",
  "Place",
  "Boulevard",
  "Quai",
  "Calle",
  "Praça",
  "Straße",
];

export const STREET_NAMES = [
  "de la République",
  "de l’Église",
  "Jean-Jaurès",
  "Émile Zola",
  "du Général-de-Gaulle",
  "de la Gare",
  "Saint-Exupéry",
  "des Célestins",
  "de España",
  "do Comércio",
  "Kärntner",
  "Dvořák",
  "Żeromskiego",
  "Ångström",
  "Molière",
  "des Hôpitaux",
  "Françoise-Sagan",
  "de la Liberté",
  "Victor-Hugo",
  "Núñez de Balboa",
];

export const LANDMARKS = [
  "GARE",
  "MAIRIE",
  "HÔTEL DE VILLE",
  "MARCHÉ",
  "UNIVERSITÉ",
  "PLACE",
  "MUSÉE",
  "HÔPITAL",
  "BIBLIOTHÈQUE",
  "STADE",
];
